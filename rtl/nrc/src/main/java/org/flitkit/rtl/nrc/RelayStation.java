package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.WidthDeserializer;
import org.flitkit.hdl.lib.WidthSerializer;
import org.flitkit.formats.th2.Th2;

/**
 * The relay station (RS) of one NRC port, with the paper's four flows over a 20-bit data path: (1) flits
 * from the switch, serialized, toward the NMA; (2) beats from the left RS onward toward the NMA;
 * (3) packets from the right RS or the NMA whose first beat is tagged with this port, reassembled into
 * flits out of the port; (4) other packets on to the left RS. Spec: 20-th2-management.md, "Where
 * management packets go". The port tag rides in the head flit ({@link RsBeat}, link format).
 *
 * <p>Flows (1) and (2) share the link toward the NMA round-robin, a whole packet (40 beats) at a time.
 * Each direction has a 2-entry relay buffer (registered valid and ready), so a beat crosses an RS in
 * one cycle and a packet streams at one beat per cycle; flows (3)/(4) decide on a packet's first beat
 * and keep the decision for its 40 beats.
 */
public final class RelayStation extends Module {
    public final int port;
    /** flow 1: flits of packets for this chip's NMA that entered at this port */
    public final Decoupled<UInt> fromSwitch = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** flow 2: beats from the left neighbour, on their way to the NMA */
    public final Decoupled<RsBeat> fromLeft = input(Decoupled.of(RsBeat::new));
    /** flows 1 and 2 onward: to the right neighbour, or to the NMA from the last RS of a row */
    public final Decoupled<RsBeat> towardNma = output(Decoupled.of(RsBeat::new));
    /** flows 3 and 4: beats from the right neighbour, or from the NMA into the last RS of a row */
    public final Decoupled<RsBeat> fromRight = input(Decoupled.of(RsBeat::new));
    /** flow 3: flits out of this port's link layer */
    public final Decoupled<UInt> toPort = output(Decoupled.of(UInt(Th2.FLIT_BITS)));
    /** flow 4: beats for a port further left */
    public final Decoupled<RsBeat> toLeft = output(Decoupled.of(RsBeat::new));

    /** The relay station of port {@code port} in a plane of {@code geometry}. */
    public RelayStation(RsGeometry geometry, int port) {
        this.port = port;
        geometry.col(port);

        // flow 1: PortIngress hands over only source-routed VC3 packets, so the head's RtType:VC can carry the port
        WidthSerializer ser = instance("ser", new WidthSerializer(Th2.FLIT_BITS, Th2.RS_BEAT_BITS));
        ser.in.valid.assign(fromSwitch.valid);
        ser.in.bits.assign(RsBeat.toLink(RsBeat.tagged(fromSwitch.bits, lit(port, RsBeat.PORT_BITS))));
        fromSwitch.ready.assign(ser.in.ready);
        RRArbiter<RsBeat> merge = instance("merge",
                new RRArbiter<>(RsBeat::new, 2, Lock.beats(RsGeometry.BEATS_PER_PACKET)));
        merge.in.get(0).connect(fromLeft);
        Decoupled<RsBeat> local = merge.in.get(1);
        local.valid.assign(ser.out.valid);
        local.bits.data.assign(ser.out.bits);
        ser.out.ready.assign(local.ready);
        Queue<RsBeat> inbound = instance("inbound", new Queue<>(RsBeat::new, 2));
        inbound.enq.connect(merge.out);
        towardNma.connect(inbound.deq);

        Queue<RsBeat> outbound = instance("outbound", new Queue<>(RsBeat::new, 2));
        outbound.enq.connect(fromRight);
        Decoupled<RsBeat> head = outbound.deq;
        // the first beat of a packet names its port; the rest follow it
        Counter beat = new Counter(RsGeometry.BEATS_PER_PACKET).named("beat");
        when(head.fire(), beat::inc);
        Bool first = beat.value.eq(0);
        Bool tagMine = LayoutBits.get(head.bits.data, RsBeat.TAG_IN_BEAT).eq(port);
        Bool mineHeld = regInit(Bool(), 0).named("mineHeld");
        when(head.fire().and(first), () -> mineHeld.assign(tagMine));
        Bool mine = mux(first, tagMine, mineHeld);
        WidthDeserializer des = instance("des", new WidthDeserializer(Th2.FLIT_BITS, Th2.RS_BEAT_BITS));
        des.in.valid.assign(head.valid.and(mine));
        des.in.bits.assign(head.bits.data);
        toLeft.valid.assign(head.valid.and(mine.not()));
        toLeft.bits.assign(head.bits);
        head.ready.assign(mux(mine, des.in.ready, toLeft.ready));
        toPort.valid.assign(des.out.valid);
        toPort.bits.assign(RsBeat.restored(RsBeat.fromLink(des.out.bits)));
        des.out.ready.assign(toPort.ready);
    }
}
