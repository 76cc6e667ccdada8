package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.WidthDeserializer;
import org.flitkit.formats.th2.Th2;

/**
 * nmp_unpacker: takes packets from the last relay station of each row (4 on the TH-2 NRC), round-robin, one whole
 * packet (40 beats) at a time, and reassembles the 20-bit beats into flits (link order undone) and the flits
 * into one 792-bit packet for the NMA, whose head gets back the RtType and VC that carried the port tag.
 * Spec: 20-th2-management.md, "NMA submodules" (nmp_unpacker); link format in {@link RsBeat}.
 */
public final class NmpUnpacker extends Module {
    public final Vec<Decoupled<RsBeat>> rows;
    public final Decoupled<UInt> out;
    /** port the packet on {@code out} came in by (its head's tag), for statistics and debugging */
    public final UInt inPort;

    /** The TH-2 NRC's unpacker: 4 rows. */
    public NmpUnpacker() {
        this(RsGeometry.TH2.rows());
    }

    public NmpUnpacker(int rowCount) {
        rows = input(Vec(rowCount, () -> Decoupled.of(RsBeat::new)));
        out = output(PacketWords.packetStream());
        inPort = output(UInt(RsBeat.PORT_BITS));
        RRArbiter<RsBeat> arb = instance("arb",
                new RRArbiter<>(RsBeat::new, rowCount, Lock.beats(RsGeometry.BEATS_PER_PACKET)));
        for (int r = 0; r < rowCount; r++) {
            arb.in.get(r).connect(rows.get(r));
        }
        WidthDeserializer flits = instance("flits", new WidthDeserializer(Th2.FLIT_BITS, Th2.RS_BEAT_BITS));
        flits.in.valid.assign(arb.out.valid);
        flits.in.bits.assign(arb.out.bits.data);
        arb.out.ready.assign(flits.in.ready);
        WidthDeserializer packet = instance("packet", new WidthDeserializer(Th2.PACKET_BITS, Th2.FLIT_BITS));
        packet.in.valid.assign(flits.out.valid);
        packet.in.bits.assign(RsBeat.fromLink(flits.out.bits));
        flits.out.ready.assign(packet.in.ready);
        // the head flit is at packet bits 197:0, so the flit-level tag field is also its packet position
        inPort.assign(LayoutBits.get(packet.out.bits, RsBeat.TAG));
        out.valid.assign(packet.out.valid);
        out.bits.assign(LayoutBits.with(packet.out.bits, RsBeat.TAG, lit(RsBeat.PLANE_TAG, RsBeat.PORT_BITS)));
        packet.out.ready.assign(out.ready);
    }
}
