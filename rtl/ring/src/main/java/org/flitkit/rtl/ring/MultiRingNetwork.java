package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * A multi-ring of slotted or register-insertion rings ("Multi-rings and distributed full switches", section "Non-switched multi-rings"): N
 * stations, and per ring of step s one {@link RingStop} per node whose slot goes to node (x + s) mod N. A packet
 * travels on the one ring its station's selection table picks. {@code busy[j]} counts the full slots of ring j.
 */
public class MultiRingNetwork extends Module {
    /** Node x's offer lane k at index x * rings + k. */
    public final Vec<Decoupled<Offer>> offer;
    /** Deliveries of node x on ring j at index x * rings + j. */
    public final Vec<Valid<Delivery>> eject;
    public final Vec<UInt> busy;
    final int rings;

    public MultiRingNetwork(RingParams p, RingKind kind, int nodes, int[] steps, long[][] thresholds) {
        if (nodes > 1 << p.nodeBits()) {
            throw new IllegalArgumentException(nodes + " nodes do not fit " + p.nodeBits() + "-bit addresses");
        }
        rings = steps.length;
        if (thresholds.length != nodes || thresholds[0].length != rings) {
            throw new IllegalArgumentException("selection table must be " + nodes + " routes x " + rings + " rings");
        }
        int countBits = 32 - Integer.numberOfLeadingZeros(nodes);
        offer = input(Vec(nodes * rings, () -> Decoupled.of(() -> new Offer(p))));
        eject = output(Vec(nodes * rings, () -> Valid.of(() -> new Delivery(p))));
        busy = output(Vec(rings, () -> UInt(countBits)));

        List<List<RingStop>> ring = new ArrayList<>();
        for (int j = 0; j < rings; j++) {
            List<RingStop> stops = new ArrayList<>();
            for (int x = 0; x < nodes; x++) {
                RingStop n = instance("ring" + j + "_node" + x, kind.stop(p));
                n.id.assign(lit(x, p.nodeBits()));
                stops.add(n);
            }
            ring.add(stops);
        }
        for (int x = 0; x < nodes; x++) {
            RingStation st = instance("station" + x, new RingStation(p, nodes, thresholds));
            st.id.assign(lit(x, p.nodeBits()));
            for (int j = 0; j < rings; j++) {
                st.offer.get(j).connect(offer.get(x * rings + j));
                RingStop n = ring.get(j).get(x);
                n.inject.connect(st.toRing.get(j));
                eject.get(x * rings + j).valid.assign(n.eject.valid);
                eject.get(x * rings + j).bits.src.assign(n.eject.bits.src);
                eject.get(x * rings + j).bits.tag.assign(n.eject.bits.tag);
                RingStop next = ring.get(j).get(Math.floorMod(x + steps[j], nodes));
                next.in.valid.assign(n.out.valid);
                next.in.dst.assign(n.out.dst);
                next.in.src.assign(n.out.src);
                next.in.tag.assign(n.out.tag);
            }
        }
        for (int j = 0; j < rings; j++) {
            List<UInt> bits = new ArrayList<>();
            for (RingStop n : ring.get(j)) {
                bits.add(n.out.valid.asUInt().pad(countBits));
            }
            busy.get(j).assign(reduceTree(bits, UInt::add));
        }
    }

    @Override
    public String definitionName() {
        return "MultiRingNetwork";
    }
}
