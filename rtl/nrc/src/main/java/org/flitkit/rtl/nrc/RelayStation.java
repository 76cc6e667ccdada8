package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
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
 * (3) beats from the right RS or the NMA tagged with this port, reassembled into flits out of the port;
 * (4) other beats on to the left RS. Spec: 20-th2-management.md, "Where management packets go".
 *
 * <p>Flows (1) and (2) share the link toward the NMA round-robin, a whole packet (40 beats) at a time.
 * Each direction has a 2-entry relay buffer (registered valid and ready), so a beat crosses an RS in
 * one cycle and a packet streams at one beat per cycle.
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

    public RelayStation(int port) {
        this.port = port;
        RsGeometry.col(port);

        WidthSerializer ser = instance("ser", new WidthSerializer(Th2.FLIT_BITS, Th2.RS_BEAT_BITS));
        ser.in.connect(fromSwitch);
        RRArbiter<RsBeat> merge = instance("merge",
                new RRArbiter<>(RsBeat::new, 2, Lock.beats(RsGeometry.BEATS_PER_PACKET)));
        merge.in.get(0).connect(fromLeft);
        Decoupled<RsBeat> local = merge.in.get(1);
        local.valid.assign(ser.out.valid);
        local.bits.data.assign(ser.out.bits);
        local.bits.port.assign(lit(port, RsBeat.PORT_BITS));
        ser.out.ready.assign(local.ready);
        Queue<RsBeat> inbound = instance("inbound", new Queue<>(RsBeat::new, 2));
        inbound.enq.connect(merge.out);
        towardNma.connect(inbound.deq);

        Queue<RsBeat> outbound = instance("outbound", new Queue<>(RsBeat::new, 2));
        outbound.enq.connect(fromRight);
        Decoupled<RsBeat> head = outbound.deq;
        Bool mine = head.bits.port.eq(port);
        WidthDeserializer des = instance("des", new WidthDeserializer(Th2.FLIT_BITS, Th2.RS_BEAT_BITS));
        des.in.valid.assign(head.valid.and(mine));
        des.in.bits.assign(head.bits.data);
        toLeft.valid.assign(head.valid.and(mine.not()));
        toLeft.bits.assign(head.bits);
        head.ready.assign(mux(mine, des.in.ready, toLeft.ready));
        toPort.connect(des.out);
    }
}
