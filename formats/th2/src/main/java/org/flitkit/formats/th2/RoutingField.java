package org.flitkit.formats.th2;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;

/**
 * A source route {@code <HopNum, Hop0..Hop19>}: hop i is the output port (0..23) at the
 * i-th NRC on the path; HopNum = number of hops (0..20). Encodes to the 105-bit {@link FlitLayouts#ROUTE}.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public record RoutingField(List<Integer> hops) {

    /** The empty route (HopNum = 0): the packet stops at the first chip it reaches. */
    public static final RoutingField EMPTY = new RoutingField(List.of());

    public RoutingField {
        if (hops == null) {
            throw new IllegalArgumentException("hops must not be null");
        }
        if (hops.size() > Th2.MAX_HOPS) {
            throw new IllegalArgumentException("a route has at most " + Th2.MAX_HOPS + " hops, got " + hops.size());
        }
        for (int i = 0; i < hops.size(); i++) {
            checkPort(i, hops.get(i));
        }
        hops = List.copyOf(hops);
    }

    public static RoutingField of(Integer... ports) {
        return new RoutingField(List.of(ports));
    }

    public int hopNum() {
        return hops.size();
    }

    /** Output port at NRC {@code index} on the path. */
    public int hop(int index) {
        if (index < 0 || index >= hops.size()) {
            throw new IllegalArgumentException("hop index " + index + " outside 0.." + (hops.size() - 1)
                    + " (HopNum = " + hops.size() + ")");
        }
        return hops.get(index);
    }

    /** This route extended by one more hop (BFS: the route to a neighbour through {@code port}). */
    public RoutingField then(int port) {
        List<Integer> longer = new ArrayList<>(hops);
        longer.add(port);
        return new RoutingField(longer);
    }

    public BitVector encode() {
        BitVector v = FlitLayouts.ROUTE.zero().with(FlitLayouts.ROUTE.HOP_NUM, hops.size());
        for (int i = 0; i < hops.size(); i++) {
            v = v.with(FlitLayouts.ROUTE.hop(i), hops.get(i));
        }
        return v;
    }

    /** Decodes 105 bits; rejects HopNum > 20, ports > 23 and non-zero unused hop slots. */
    public static RoutingField decode(BitVector bits) {
        if (bits.width() != Th2.ROUTE_BITS) {
            throw new IllegalArgumentException("a routing field is " + Th2.ROUTE_BITS + " bits, got " + bits.width());
        }
        int hopNum = (int) bits.get(FlitLayouts.ROUTE.HOP_NUM);
        if (hopNum > Th2.MAX_HOPS) {
            throw new IllegalArgumentException("HopNum " + hopNum + " outside 0.." + Th2.MAX_HOPS);
        }
        List<Integer> hops = new ArrayList<>();
        for (int i = 0; i < Th2.MAX_HOPS; i++) {
            int port = (int) bits.get(FlitLayouts.ROUTE.hop(i));
            if (i < hopNum) {
                hops.add(port);
            } else if (port != 0) {
                throw new IllegalArgumentException("unused hop slot Hop" + i + " = " + port + " (HopNum = "
                        + hopNum + "): unused slots must be 0");
            }
        }
        return new RoutingField(hops);
    }

    @Override
    public String toString() {
        return "Route" + hops;
    }

    private static void checkPort(int index, Integer port) {
        if (port == null || port < 0 || port >= Th2.NRC_PORTS) {
            throw new IllegalArgumentException("hop " + index + ": port " + port + " outside 0.."
                    + (Th2.NRC_PORTS - 1));
        }
    }
}
