package org.flitkit.rtl.chpp.receive;

import org.flitkit.rtl.chpp.BeatSource;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.UInt;
import org.flitkit.env.host.HostMemory;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;

/**
 * A {@link CompletionRing} on the real {@link PcieHost} (cHPP parameters: 16-byte beats, link model) and
 * {@link HostMemory}: an entry driver, and host software that polls the ring by its Phase bit and returns its
 * consumer index by BAR write, both at random rates. Every host write is checked to land in the next slot and
 * never on an entry software has not yet read; software's entries go to an in-order scoreboard.
 */
final class RingHarness implements AutoCloseable {
    static final long BASE = 0x7_0000_0000L;

    final CompletionRingParams p;
    final Testbench<RingTop> tb;
    final PcieHost host;
    final HostMemory mem = new HostMemory();
    /** drives the entries into the ring, valid and bits held until taken */
    final BeatSource producer;
    final Software sw;
    final InOrderScoreboard<ReceiveCompletion> board;
    /** host writes seen so far */
    long hostWrites;
    /** cycle of every host write, in order */
    final List<Long> writeCycles = new ArrayList<>();

    RingHarness(RunConfig cfg, String part, CompletionRingParams p, double gapP, double pollP, double returnP) {
        this.p = p;
        tb = Testbench.create(() -> new RingTop(p), cfg.part(part));
        RingTop top = tb.dut();
        host = tb.add(new PcieHost("host", mem, PcieParams.chpp()).dma(top.dmaRq, top.dmaCpl).mmio(top.mmio));
        producer = tb.add(new BeatSource("producer", top.in, gapP));
        sw = tb.add(new Software(pollP, returnP));
        board = tb.add(new InOrderScoreboard<>("sb.ring"));
        host.onWrite(w -> {
            long k = hostWrites++;
            writeCycles.add(w.cycle());
            long want = BASE + 16 * (k % p.entries());
            if (w.addr() != want || w.data().length != 16) {
                throw tb.fail("write " + k + " at 0x" + Long.toHexString(w.addr()) + " (" + w.data().length
                        + " bytes), expected 16 bytes at 0x" + Long.toHexString(want));
            }
            if (k >= sw.read + p.entries()) {
                throw tb.fail("write " + k + " overwrites slot " + (k % p.entries()) + " before software read entry "
                        + (k - p.entries()) + " (software has read " + sw.read + ")");
            }
        });
    }

    /** Random receive completion with Phase clear (the ring sets it). */
    static ReceiveCompletion randomEntry(Rng rng) {
        boolean nap = rng.chance(0.5);
        CompletionStatus[] st = {CompletionStatus.OK, CompletionStatus.QP_MAGIC_REFUSED, CompletionStatus.PCIE_ERROR, CompletionStatus.COMPLETION_TIMEOUT, CompletionStatus.NO_RECEIVE_BUFFER};
        EndpointId src = EndpointId.decode(rng.nextInt(256));
        EndpointId dst = EndpointId.decode(rng.nextInt(256));
        if (nap) {
            return new ReceiveCompletion(PktType.NAP, false, st[rng.nextInt(st.length)], src, dst, rng.nextInt(2049),
                    2048L * (rng.nextLong() >>> 20), false);
        }
        return new ReceiveCompletion(PktType.PUT, rng.chance(0.3), st[rng.nextInt(st.length)], src, dst,
                1 + rng.nextInt(4096), rng.nextLong() >>> 16, false);
    }

    static BigInteger bits(ReceiveCompletion e) {
        return PcieHost.fromLittleEndian(e.encode());
    }

    /** Queues {@code e} (Phase ignored) and expects it, with the phase of its lap, in software's order. */
    void post(ReceiveCompletion e, long index) {
        boolean phase = (index / p.entries()) % 2 == 0;
        producer.beat(bits(e).setBit(CompletionRing.PHASE_BIT)); // a set Phase bit on input must not matter
        board.expect(new ReceiveCompletion(e.type(), e.resp(), e.status(), e.src(), e.dst(), e.length(), e.address(), phase));
    }

    /** Software's initialisation: the ring base, then entries. */
    void start() {
        tb.reset(1);
        host.mmioWrite(p.mmioOffset() + CompletionRingParams.REG_BASE, BASE);
    }

    boolean done() {
        return producer.idle() && board.isEmpty();
    }

    long peek(UInt s) {
        return tb.sim().peek(s);
    }

    @Override
    public void close() {
        tb.close();
    }

    /** Host software: polls the next slot's Phase, reads new entries, returns the consumer index now and then. */
    final class Software extends Component {
        final double pollP;
        final double returnP;
        /** entries read */
        long read;
        /** entries returned to the NIC by BAR write */
        long returned;
        /** when set, software neither polls nor returns */
        boolean asleep;
        /** return after every entry read */
        boolean returnAlways;
        final List<Long> returns = new ArrayList<>();

        Software(double pollP, double returnP) {
            super("software");
            this.pollP = pollP;
            this.returnP = returnP;
        }

        @Override
        protected void sample() {
            if (asleep || cycle() < 2) {
                return;
            }
            if (rng().chance(pollP)) {
                long addr = BASE + 16 * (read % p.entries());
                byte[] e = mem.read(addr, 16);
                boolean expected = (read / p.entries()) % 2 == 0;
                boolean phase = (e[15] & 0x80) != 0;
                if (phase == expected) {
                    board.observe(ReceiveCompletion.decode(e));
                    read++;
                }
            }
            if (read > returned && (returnAlways || rng().chance(returnP))) {
                returned = read;
                returns.add(read);
                host.mmioWrite(p.mmioOffset() + CompletionRingParams.REG_CONSUMER, read % (2L * p.entries()));
            }
        }
    }
}
