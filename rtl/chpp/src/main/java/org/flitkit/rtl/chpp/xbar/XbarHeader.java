package org.flitkit.rtl.chpp.xbar;

import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;

/**
 * The header beat of a packet offered to the {@link DmaCrossbar}, built with the formats' field positions
 * (docs/chpp-dma.md, "Intra-DMA crossbar"). Used by the crossbar's load generator and its testbenches.
 */
public final class XbarHeader {
    private XbarHeader() {
    }

    /**
     * A header with the formats' field positions: PKTType, DST_ID (destination port {@code dest} in
     * {@code destField}), Length, QPMagic = {@code tag}, Address = {@code seq} (free fields a testbench uses to name
     * the packet).
     */
    public static BitVector of(Field destField, long dest, PktType type, int length, int tag, long seq) {
        HeaderLayout.Header h = HeaderLayout.HEADER;
        BitVector v = h.zero().with(h.FMT, 0b011).with(h.PKT_TYPE, type.code()).with(h.LENGTH, length)
                .with(h.QP_MAGIC, tag).with(h.ADDRESS, seq);
        return v.with(destField, dest);
    }
}
