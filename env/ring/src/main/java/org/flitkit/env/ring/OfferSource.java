package org.flitkit.env.ring;

import java.util.ArrayDeque;
import java.util.List;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.ring.Offer;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.scoreboard.Scoreboard;

/**
 * One subscriber's traffic over its station's lanes (one per ring): packets to uniformly random other nodes, each
 * with a uniform 16-bit ring pick, handed to the lanes in birth order. Saturated ({@code rate} < 0) every lane always
 * holds a packet, so the node sends on a ring whenever that ring's queue has room; otherwise packets are born at
 * {@code rate} per cycle into an unbounded backlog (docs/multiring.md, "RTL").
 */
final class OfferSource extends Component {
    private final List<Decoupled<Offer>> lanes;
    private final int self;
    private final int nodes;
    private final double rate;
    private final Scoreboard<RingPacket> board;
    private final DeliveryTimes times;
    private final ArrayDeque<long[]> backlog = new ArrayDeque<>();
    /** Per lane: {dst, pick, birth cycle, tag}, or null. */
    private final long[][] held;
    private int tag;
    private long sent;
    private boolean stopped;

    OfferSource(String name, List<Decoupled<Offer>> lanes, int self, int nodes, double rate, Scoreboard<RingPacket> board,
            DeliveryTimes times) {
        super(name);
        this.lanes = lanes;
        this.self = self;
        this.nodes = nodes;
        this.rate = rate;
        this.board = board;
        this.times = times;
        this.held = new long[lanes.size()][];
    }

    /** Offers nothing more: the backlog and the lanes' packets were never taken, so they are dropped. */
    void stop() {
        stopped = true;
        backlog.clear();
        java.util.Arrays.fill(held, null);
    }

    long sent() {
        return sent;
    }

    private long[] newPacket() {
        int dst = (self + 1 + rng().nextInt(nodes - 1)) % nodes;
        return new long[] {dst, rng().nextInt(1 << Offer.PICK_BITS), cycle(), 0};
    }

    @Override
    protected void drive() {
        if (!stopped) {
            if (rate >= 0) {
                // Bernoulli births, more than one per cycle when rate > 1
                double r = rate;
                while (r >= 1) {
                    backlog.add(newPacket());
                    r -= 1;
                }
                if (r > 0 && rng().chance(r)) {
                    backlog.add(newPacket());
                }
            }
            for (int k = 0; k < held.length; k++) {
                if (held[k] == null) {
                    long[] pkt = rate < 0 ? newPacket() : backlog.poll();
                    if (pkt == null) {
                        break;
                    }
                    pkt[3] = tag;
                    tag = (tag + 1) & 0xFFFF;
                    held[k] = pkt;
                }
            }
        }
        for (int k = 0; k < held.length; k++) {
            Decoupled<Offer> port = lanes.get(k);
            sim().poke(port.valid, held[k] != null);
            if (held[k] != null) {
                sim().poke(port.bits.dst, held[k][0]);
                sim().poke(port.bits.pick, held[k][1]);
                sim().poke(port.bits.tag, held[k][3]);
            }
        }
    }

    @Override
    protected void sample() {
        for (int k = 0; k < held.length; k++) {
            long[] pkt = held[k];
            if (pkt != null && sim().peekBool(lanes.get(k).ready)) {
                board.expect(new RingPacket(self, (int) pkt[0], (int) pkt[3]));
                times.born(self, (int) pkt[3], pkt[2]);
                held[k] = null;
                sent++;
            }
        }
    }

    @Override
    protected void reset() {
        lanes.forEach(l -> sim().poke(l.valid, false));
    }
}
