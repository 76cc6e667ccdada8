package org.flitkit.rtl.chpp.send;


import static org.flitkit.hdl.Hdl.*;
import java.util.List;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.UInt;

/**
 * The send engine's one hardware assembly of the 16-byte cHPP header (paper section 3.2; formats/chpp
 * {@link HeaderLayout}), shared by {@link DescriptorExtract} (GET packets) and {@link Packer} (NAP and PUT packets):
 * every field placed through formats/chpp's field handles, as formats/chpp {@code PacketHeader.toBits} encodes it
 * (Fmt/Type 011/00000, Requester ID = {@code requesterBusDevice} + function[2:0], SRC_ID = processor/function/QP).
 * docs/chpp-packer.md, "Header".
 */
public final class PacketHeaders {
    private PacketHeaders() {
    }

    /**
     * The 128-bit header (bit 127 first on the wire) of a packet sent by function {@code fn} (its low 3 bits name
     * it), queue pair {@code qp}. Widths: {@code pktType} 2, {@code sFlag} 3, {@code length} 13, {@code qpMagic}
     * 16, {@code dstId} 8, {@code address} 48; {@code tc} is a constant of the engine.
     */
    public static UInt header(SendEngineParams sp, int tc, UInt pktType, UInt sFlag, UInt length, UInt fn, UInt qp,
                              UInt qpMagic, UInt dstId, UInt address) {
        HeaderLayout.Header h = HeaderLayout.HEADER;
        UInt fn3 = fn.bits(Chpp.FUNCTION_BITS - 1, 0);
        return LayoutBits.pack(h.width(), List.of(
                new LayoutBits.Slot(h.FMT, lit(Chpp.FMT_MWR_4DW, h.FMT.width())),
                new LayoutBits.Slot(h.TYPE, lit(Chpp.TYPE_MEM, h.TYPE.width())),
                new LayoutBits.Slot(h.TC, lit(tc, h.TC.width())),
                new LayoutBits.Slot(h.PKT_TYPE, pktType),
                new LayoutBits.Slot(h.S_FLAG, sFlag),
                new LayoutBits.Slot(h.LENGTH, length),
                new LayoutBits.Slot(h.REQUESTER_ID, cat(lit(sp.requesterBusDevice() >> 3, h.REQUESTER_ID.width() - 3), fn3)),
                new LayoutBits.Slot(h.QP_MAGIC, qpMagic),
                new LayoutBits.Slot(h.SRC_ID, cat(lit(sp.processor(), Chpp.PROCESSOR_BITS), fn3, qp)),
                new LayoutBits.Slot(h.DST_ID, dstId),
                new LayoutBits.Slot(h.ADDRESS, address)));
    }
}
