package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.WidthDeserializer;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.hw.PacketBits;

/**
 * nmp_unpacker: takes packets from the last relay station of each of the 4 rows, round-robin, one whole
 * packet (40 beats) at a time, and reassembles the 20-bit beats into flits and the flits into one
 * 792-bit packet for the NMA. Spec: 20-th2-management.md, "NMA submodules" (nmp_unpacker).
 */
public final class NmpUnpacker extends Module {
    public final Vec<Decoupled<RsBeat>> rows = input(Vec(RsGeometry.ROWS, () -> Decoupled.of(RsBeat::new)));
    public final Decoupled<UInt> out = output(PacketBits.packetStream());
    /** port the packet on {@code out} came in by (the beats' tag), for statistics and debugging */
    public final UInt inPort = output(UInt(RsBeat.PORT_BITS));

    public NmpUnpacker() {
        RRArbiter<RsBeat> arb = instance("arb",
                new RRArbiter<>(RsBeat::new, RsGeometry.ROWS, Lock.beats(RsGeometry.BEATS_PER_PACKET)));
        for (int r = 0; r < RsGeometry.ROWS; r++) {
            arb.in.get(r).connect(rows.get(r));
        }
        WidthDeserializer flits = instance("flits", new WidthDeserializer(Th2.FLIT_BITS, Th2.RS_BEAT_BITS));
        flits.in.valid.assign(arb.out.valid);
        flits.in.bits.assign(arb.out.bits.data);
        arb.out.ready.assign(flits.in.ready);
        WidthDeserializer packet = instance("packet", new WidthDeserializer(Th2.PACKET_BITS, Th2.FLIT_BITS));
        packet.in.connect(flits.out);
        out.connect(packet.out);
        // the tag of each packet in the deserializers: at most the one on `out` and the next one
        Queue<UInt> ports = instance("ports", new Queue<>(() -> UInt(RsBeat.PORT_BITS), 2));
        Counter beat = new Counter(RsGeometry.BEATS_PER_PACKET).named("beat");
        when(arb.out.fire(), beat::inc);
        ports.enq.valid.assign(arb.out.fire().and(beat.value.eq(0)));
        ports.enq.bits.assign(arb.out.bits.port);
        ports.deq.ready.assign(out.fire());
        inPort.assign(ports.deq.bits);
    }
}
