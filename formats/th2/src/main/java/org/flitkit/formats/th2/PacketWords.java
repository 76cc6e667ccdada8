package org.flitkit.formats.th2;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;

/**
 * A whole management packet as one hardware word (docs/th2-formats.md, "Packet"): its stream type, its fixed
 * framing and its payload fields, built on {@link LayoutBits} (which reads and writes any other field).
 */
public final class PacketWords {
    private PacketWords() {
    }

    /** A valid/ready stream of whole management packets (one beat = 4 flits = 792 bits). */
    public static Decoupled<UInt> packetStream() {
        return Decoupled.of(UInt(Th2.PACKET_BITS));
    }

    /** The framing every management packet has: flit kinds head, body, body, tail; VC3; Len 4; source routing; MP, S/M 0, Inst 1. */
    public static Bool managementFraming(Bits pkt) {
        Bool ok = TRUE();
        for (FlitLayouts.Flit flit : PacketLayout.FLITS) {
            ok = ok.and(LayoutBits.get(pkt, flit.KIND).eq(flit.kind()));
        }
        return ok.and(LayoutBits.get(pkt, PacketLayout.HEAD.VC).eq(Th2.MANAGEMENT_VC))
                .and(LayoutBits.get(pkt, PacketLayout.HEAD.LEN).eq(Th2.PACKET_FLITS))
                .and(LayoutBits.get(pkt, PacketLayout.HEAD.RT_TYPE).eq(Th2.RT_SOURCE))
                .and(LayoutBits.get(pkt, PacketLayout.HEAD.TYPE).eq(Th2.TYPE_MP))
                .and(LayoutBits.get(pkt, PacketLayout.HEAD.SM).eq(Th2.MANAGEMENT_SM ? 1 : 0))
                .and(LayoutBits.get(pkt, PacketLayout.HEAD.INST).eq(Th2.MANAGEMENT_INST ? 1 : 0));
    }

    /** A payload field (from {@link PayloadLayouts}) inside a whole packet: the field moved into NMP_DATA. */
    public static UInt payload(Bits packet, Field payloadField) {
        return LayoutBits.get(packet, payloadField.shifted(payloadField.name(), PacketLayout.BODY2.NMP_DATA.lsb()));
    }
}
