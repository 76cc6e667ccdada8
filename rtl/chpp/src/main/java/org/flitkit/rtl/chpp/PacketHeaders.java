package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.th2.Field;
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
        Map<Field, UInt> v = new LinkedHashMap<>();
        v.put(h.FMT, lit(Chpp.FMT_MWR_4DW, h.FMT.width()));
        v.put(h.TYPE, lit(Chpp.TYPE_MEM, h.TYPE.width()));
        v.put(h.TC, lit(tc, h.TC.width()));
        v.put(h.PKT_TYPE, pktType);
        v.put(h.S_FLAG, sFlag);
        v.put(h.LENGTH, length);
        v.put(h.REQUESTER_ID, cat(lit(sp.requesterBusDevice() >> 3, h.REQUESTER_ID.width() - 3), fn3));
        v.put(h.QP_MAGIC, qpMagic);
        v.put(h.SRC_ID, cat(lit(sp.processor(), Chpp.PROCESSOR_BITS), fn3, qp));
        v.put(h.DST_ID, dstId);
        v.put(h.ADDRESS, address);
        return place(h.width(), v);
    }

    /** Concatenates field values at their layout positions, zeros in the gaps (the layout's reserved bits). */
    static UInt place(int width, Map<Field, UInt> values) {
        List<Map.Entry<Field, UInt>> es = new ArrayList<>(values.entrySet());
        es.sort(Comparator.comparingInt((Map.Entry<Field, UInt> e) -> e.getKey().lsb()).reversed());
        List<UInt> parts = new ArrayList<>();
        int next = width - 1;
        for (Map.Entry<Field, UInt> e : es) {
            Field f = e.getKey();
            int msb = f.lsb() + f.width() - 1;
            if (msb > next) {
                throw new IllegalStateException("field " + f.name() + " overlaps the one above it");
            }
            if (msb < next) {
                parts.add(lit(0, next - msb));
            }
            if (e.getValue().width() != f.width()) {
                throw new IllegalStateException("value for " + f.name() + " is " + e.getValue().width() + " bits, field " + f.width());
            }
            parts.add(e.getValue());
            next = f.lsb() - 1;
        }
        if (next >= 0) {
            parts.add(lit(0, next + 1));
        }
        return cat(parts);
    }
}
