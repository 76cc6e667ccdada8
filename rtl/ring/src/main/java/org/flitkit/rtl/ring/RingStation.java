package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;

/**
 * A subscriber's attachment to every ring of a multi-ring: the ring-selection table (the schedule, as cumulative
 * 16-bit thresholds per route r = dst - id mod N) picks the ring for each offered packet, which waits in that ring's
 * queue for an empty slot (docs/multiring.md, "RTL"). The same table serves every station: the rings are circulant.
 */
public final class RingStation extends Module {
    /** Threshold of "all of the route": one past the largest pick. */
    public static final int WHOLE = 1 << Offer.PICK_BITS;
    public static final int THRESHOLD_BITS = Offer.PICK_BITS + 1;

    public final UInt id;
    /** One lane per ring: up to that many packets a cycle, as many as the rings can take. */
    public final Vec<Decoupled<Offer>> offer;
    public final Vec<Decoupled<Packet>> toRing;

    /**
     * {@code thresholds[r][j]}: the route's packets with pick below it go to ring j or an earlier one; non-decreasing in
     * j, the last ring at {@link #WHOLE} (route 0, a node to itself, is never offered). Lanes choosing the same ring in
     * one cycle: the lowest lane goes first, the others wait.
     */
    public RingStation(RingParams p, int nodes, long[][] thresholds) {
        int rings = thresholds[0].length;
        int w = p.nodeBits();
        id = input(UInt(w));
        offer = input(Vec(rings, () -> Decoupled.of(() -> new Offer(p))));
        toRing = output(Vec(rings, () -> Decoupled.of(() -> new Packet(p))));

        List<Mem<UInt>> tables = new ArrayList<>();
        for (int j = 0; j < rings; j++) {
            long[] column = new long[nodes];
            for (int r = 0; r < nodes; r++) {
                column[r] = thresholds[r][j];
            }
            tables.add(mem(nodes, UInt(THRESHOLD_BITS)).init(column).named("table_" + j));
        }
        // chosen[k][j]: lane k's packet goes to ring j
        List<List<Bool>> chosen = new ArrayList<>();
        for (int k = 0; k < rings; k++) {
            Decoupled<Offer> o = offer.get(k);
            // r = dst - id mod N without a divider: N + dst - id is in 1..2N-1
            UInt wide = o.bits.dst.pad(w + 1).add(lit(nodes, w + 1)).sub(id.pad(w + 1)).named("route_wide_" + k);
            UInt route = mux(wide.ge(nodes), wide.sub(nodes), wide).trunc(w).named("route_" + k);
            List<Bool> below = new ArrayList<>();
            List<Bool> pick = new ArrayList<>();
            for (int j = 0; j < rings; j++) {
                below.add(o.bits.pick.pad(THRESHOLD_BITS).lt(tables.get(j).read(route)));
                Bool first = j == 0 ? below.get(0) : below.get(j).andNot(below.get(j - 1));
                pick.add(o.valid.and(first).named("lane" + k + "_to_ring" + j));
            }
            chosen.add(pick);
        }
        List<Bool> accepted = new ArrayList<>();
        for (int k = 0; k < rings; k++) {
            accepted.add(FALSE());
        }
        for (int j = 0; j < rings; j++) {
            Decoupled<Packet> q = wire(Decoupled.of(() -> new Packet(p)));
            List<Bool> wants = new ArrayList<>();
            List<UInt> dsts = new ArrayList<>();
            List<UInt> tags = new ArrayList<>();
            for (int k = 0; k < rings; k++) {
                wants.add(chosen.get(k).get(j));
                dsts.add(offer.get(k).bits.dst);
                tags.add(offer.get(k).bits.tag);
            }
            q.valid.assign(orAll(wants));
            q.bits.dst.assign(priorityMux(wants, dsts));
            q.bits.tag.assign(priorityMux(wants, tags));
            toRing.get(j).connect(Queue.of(q, p.queueDepth()));
            Bool earlier = FALSE();
            for (int k = 0; k < rings; k++) {
                accepted.set(k, accepted.get(k).or(wants.get(k).andNot(earlier).and(q.ready)));
                earlier = earlier.or(wants.get(k));
            }
        }
        for (int k = 0; k < rings; k++) {
            offer.get(k).ready.assign(accepted.get(k));
        }
    }

    @Override
    public String definitionName() {
        return "RingStation";
    }
}
