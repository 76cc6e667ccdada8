package org.flitkit.rtl.nrc;

import static org.flitkit.formats.th2.FlitLayouts.HEAD;
import static org.flitkit.formats.th2.FlitLayouts.ROUTE;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.Th2;

/**
 * Steers the flits entering one NRC port: a management packet (VC3, source routed) that has arrived
 * (head HopPtr == HopNum) goes to the port's relay station and on to the NMA; every other packet goes
 * to the switch, whole. Decided on the head flit, held to the tail. Spec: 20-th2-management.md, NRC roles.
 */
public final class PortIngress extends Module {
    public final Decoupled<UInt> in = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** packets for this chip, to the relay station (flow 1) */
    public final Decoupled<UInt> toRs = output(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** packets for other chips, to the switch core */
    public final Decoupled<UInt> toSwitch = output(Decoupled.of(UInt(Th2.FLIT_BITS)));

    /** between a head and its tail */
    private final Bool inPacket = regInit(Bool(), 0);
    /** the packet in progress goes to the relay station */
    private final Bool forNma = regInit(Bool(), 0);

    public PortIngress() {
        UInt f = in.bits;
        UInt kind = LayoutBits.get(f, HEAD.KIND);
        UInt route = LayoutBits.get(f, HEAD.ROUTE);
        Bool arrived = kind.eq(Th2.KIND_HEAD)
                .and(LayoutBits.get(f, HEAD.VC).eq(Th2.MANAGEMENT_VC))
                .and(LayoutBits.get(f, HEAD.RT_TYPE).eq(Th2.RT_SOURCE))
                .and(LayoutBits.get(f, HEAD.HOP_PTR).eq(LayoutBits.get(route, ROUTE.HOP_NUM)));
        Bool local = mux(inPacket, forNma, arrived);
        Bool tail = kind.bit(0);
        toRs.valid.assign(in.valid.and(local));
        toRs.bits.assign(f);
        toSwitch.valid.assign(in.valid.and(local.not()));
        toSwitch.bits.assign(f);
        in.ready.assign(mux(local, toRs.ready, toSwitch.ready));
        when(in.fire(), () -> {
            inPacket.assign(tail.not());
            forNma.assign(local);
        });
    }
}
