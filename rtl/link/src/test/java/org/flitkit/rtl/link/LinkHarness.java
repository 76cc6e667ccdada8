package org.flitkit.rtl.link;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Deque;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.link.BitErrorInjector;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;

/**
 * Two link layers through a cable with a driver on each side: random flits (the VC in the flit's low 3 bits),
 * credits returned for every flit received after a random delay, in-order scoreboards, a watch on the frames
 * each end sends (new and resent FLIT frames), and a bit-error injector per direction.
 */
final class LinkHarness implements AutoCloseable {
    static final int VCS = 6;

    final Testbench<LinkPairBoard> tb;
    final LinkPairBoard dut;
    final Side a;
    final Side b;
    final BitErrorInjector errAB;
    final BitErrorInjector errBA;

    /** One end: its traffic, what it sent, what it received and credited. */
    final class Side {
        final LinkPairBoard.End end;
        final FlitTraffic traffic;
        final InOrderScoreboard<BigInteger> toPeer;
        final CreditLoop credits;
        final TxWatch watch;

        Side(String n, LinkPairBoard.End end, LinkPairBoard.End peer) {
            this.end = end;
            toPeer = tb.add(new InOrderScoreboard<BigInteger>(n + "_to_peer"));
            toPeer.format(x -> x.toString(16));
            traffic = tb.add(new FlitTraffic(n + "_traffic", end, toPeer));
            credits = tb.add(new CreditLoop(n + "_credits", end, peer));
            watch = tb.add(new TxWatch(n + "_txwatch", end.wireOut, end.status));
        }
    }

    LinkHarness(LinkParams params, int latencyAB, int latencyBA, long seed) {
        tb = Testbench.create(() -> new LinkPairBoard(params, latencyAB, latencyBA), RunConfig.of(seed, 0));
        dut = tb.dut();
        errAB = tb.add(new BitErrorInjector("errAB", dut.errorAB, dut.cutAB, 0));
        errBA = tb.add(new BitErrorInjector("errBA", dut.errorBA, dut.cutBA, 0));
        a = new Side("a", dut.a, dut.b);
        b = new Side("b", dut.b, dut.a);
        // the peer's scoreboard hears what this end delivers
        tb.add(new RxCheck("b_rx", dut.b, a.toPeer, a.traffic));
        tb.add(new RxCheck("a_rx", dut.a, b.toPeer, b.traffic));
        identity(dut.a, 1, 0x0A01, 3);
        identity(dut.b, 0, 0x0B02, 17);
        tb.reset(2);
    }

    Simulator sim() {
        return tb.sim();
    }

    void identity(LinkPairBoard.End e, int type, int id, int port) {
        tb.sim().poke(e.chipType, type);
        tb.sim().poke(e.chipId, id);
        tb.sim().poke(e.port, port);
    }

    long peek(Bits s) {
        return tb.sim().peek(s);
    }

    boolean up() {
        return peek(dut.a.status.up) == 1 && peek(dut.b.status.up) == 1;
    }

    void waitUp(long max) {
        tb.runUntil("both ends up", this::up, max);
    }

    /** Waits until both sides have sent their budget, every flit is delivered and every credit has come back. */
    void drain(long max) {
        tb.runUntil("all flits sent", () -> a.traffic.budget == 0 && b.traffic.budget == 0, max);
        tb.runUntil("all flits delivered and credited", () -> a.traffic.idle() && b.traffic.idle()
                && a.toPeer.isEmpty() && b.toPeer.isEmpty() && a.credits.settled() && b.credits.settled(), max);
        // the last counters and frames settle within a round trip
        tb.run(64);
    }

    @Override
    public void close() {
        tb.close();
    }

    // ------------------------------------------------------------------ components

    /** Random flits into an end's txFlit with probability {@code load} per cycle; expects them at the peer. */
    static final class FlitTraffic extends Component {
        private final LinkPairBoard.End end;
        private final InOrderScoreboard<BigInteger> board;
        double load = 0.5;
        long budget;
        private BigInteger current;
        long accepted;
        final long[] perVc = new long[VCS];

        FlitTraffic(String name, LinkPairBoard.End end, InOrderScoreboard<BigInteger> board) {
            super(name);
            this.end = end;
            this.board = board;
        }

        void stop() {
            budget = 0;
        }

        boolean idle() {
            return current == null;
        }

        @Override
        protected void reset() {
            sim().poke(end.txFlit.valid, 0);
            current = null;
        }

        @Override
        protected void drive() {
            if (current == null && budget > 0 && rng().chance(load)) {
                BigInteger f = rng().bits(Th2.FLIT_BITS).shiftRight(3).shiftLeft(3).or(BigInteger.valueOf(rng().nextInt(VCS)));
                current = f;
                budget--;
                sim().poke(end.txFlit.bits, f);
            }
            sim().poke(end.txFlit.valid, current != null);
        }

        @Override
        protected void sample() {
            if (current != null && sim().peek(end.txFlit.ready) == 1) {
                board.expect(current);
                perVc[current.intValue() & 7]++;
                accepted++;
                current = null;
            }
        }
    }

    /** The peer's delivered flits into the sender's scoreboard. */
    static final class RxCheck extends Component {
        private final LinkPairBoard.End end;
        private final InOrderScoreboard<BigInteger> board;
        long received;

        RxCheck(String name, LinkPairBoard.End end, InOrderScoreboard<BigInteger> board, FlitTraffic unused) {
            super(name);
            this.end = end;
            this.board = board;
        }

        @Override
        protected void sample() {
            if (sim().peek(end.rxFlit.valid) == 1) {
                board.observe(sim().peekBig(end.rxFlit.bits));
                received++;
            }
        }
    }

    /**
     * The switch behind one end: every flit received frees its slot (VC in the flit's low 3 bits) after 0..15
     * cycles, one credit per cycle at most; and the credits the peer returns, summed per VC.
     */
    static final class CreditLoop extends Component {
        private final LinkPairBoard.End end;
        private final Deque<long[]> pending = new ArrayDeque<>();
        final long[] returned = new long[VCS];
        final long[] receivedFromPeer = new long[VCS];
        long flitsIn;

        CreditLoop(String name, LinkPairBoard.End end, LinkPairBoard.End peer) {
            super(name);
            this.end = end;
        }

        boolean settled() {
            return pending.isEmpty();
        }

        @Override
        protected void reset() {
            sim().poke(end.txCredit.valid, 0);
        }

        @Override
        protected void drive() {
            long[] head = pending.peekFirst();
            if (head != null && head[0] <= cycle()) {
                pending.removeFirst();
                sim().poke(end.txCredit.bits, head[1]);
                sim().poke(end.txCredit.valid, 1);
                returned[(int) head[1]]++;
            } else {
                sim().poke(end.txCredit.valid, 0);
            }
        }

        @Override
        protected void sample() {
            if (sim().peek(end.rxFlit.valid) == 1) {
                int vc = sim().peekBig(end.rxFlit.bits).intValue() & 7;
                long due = Math.max(cycle() + 1 + rng().nextInt(16), pending.isEmpty() ? 0 : pending.peekLast()[0]);
                pending.addLast(new long[] {due, vc});
                flitsIn++;
            }
            if (sim().peek(end.rxCredit.valid) == 1) {
                receivedFromPeer[(int) sim().peek(end.rxCredit.bits.vc)] += sim().peek(end.rxCredit.bits.count);
            }
        }
    }

    /**
     * The frames one end sends (before the cable's errors), gathered from the lanes as the far end's gearbox
     * does: FLIT frames new and resent, by sequence number; BIST and IDENT frames.
     */
    static final class TxWatch extends Component {
        private final Bits wire;
        private final LinkStatus status;
        private final BitVector[] chunks = new BitVector[LinkFrame.LANES];
        /** the width the sender had one cycle ago: its gearbox shows frames one cycle after going up */
        private int sendingWidth;
        private int phase;
        private int nextNew;
        long flitFrames;
        long resent;
        long bistFrames;
        long identFrames;
        long trainingCycles;
        final java.util.List<Long> identCycles = new java.util.ArrayList<>();
        BitVector last;

        TxWatch(String name, Bits wire, LinkStatus status) {
            super(name);
            this.wire = wire;
            this.status = status;
        }

        @Override
        protected void sample() {
            BitVector lanes = BitVector.of(LinkFrame.BITS, sim().peekBig(wire));
            int w = sendingWidth;
            sendingWidth = (int) sim().peek(status.width);
            if (w == 0) {
                phase = 0;
                for (int i = 0; i < LinkFrame.LANES; i++) {
                    if (!LinkFrame.trainValid(lanes.slice(i * LinkFrame.LANE_BITS, LinkFrame.LANE_BITS).limbs()[0], i)) {
                        throw fail("lane " + i + " sends no valid training word while the link is down: " + lanes.toHex());
                    }
                }
                trainingCycles++;
                return;
            }
            int txLanes = (int) sim().peek(status.txLanes);
            int k = 0;
            for (int i = 0; i < LinkFrame.LANES; i++) {
                BitVector lane = lanes.slice(i * LinkFrame.LANE_BITS, LinkFrame.LANE_BITS);
                boolean used = (txLanes >>> i & 1) != 0 && k < w;
                if (used) {
                    chunks[phase * w + k++] = lane;
                } else if (!lane.isZero()) {
                    throw fail("unused lane " + i + " is not quiet at width " + w);
                }
            }
            if (++phase < LinkFrame.LANES / w) {
                return;
            }
            phase = 0;
            BitVector f = BitVector.concat(java.util.List.of(chunks));
            last = f;
            if (!LinkFrame.crcGood(f)) {
                throw fail("frame sent with a bad CRC: " + f.toHex());
            }
            LinkFrame.Type t = LinkFrame.Type.exact(f.get(LinkFrame.FRAME.TYPE));
            if (t == LinkFrame.Type.FLIT) {
                flitFrames++;
                int seq = (int) f.get(LinkFrame.FRAME.SEQ);
                if (seq == nextNew) {
                    nextNew = (nextNew + 1) & 0xFF;
                } else {
                    resent++;
                }
            } else if (t == LinkFrame.Type.BIST) {
                bistFrames++;
            } else if (t == LinkFrame.Type.IDENT) {
                identFrames++;
                identCycles.add(cycle());
            }
        }
    }
}
