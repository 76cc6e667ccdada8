package org.flitkit.formats.chpp;

import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;

/**
 * One doorbell as the function's doorbell window receives it: the QP (from the page written) and the
 * descriptor's address and length (from the 64-bit data). Its fields are exactly the {@code Doorbell} bundle of
 * rtl/chpp: addr (64 bits, of which 52 are used), length in bytes (13 bits, 8..4096), qp (2 bits). Layout
 * {@link DoorbellLayout}; docs/chpp-formats.md, "Doorbell write".
 */
public record DoorbellWrite(int qp, long address, int length) {

    private static final DoorbellLayout.Write L = DoorbellLayout.WRITE;
    public static final int MAX_WORDS = Chpp.MAX_DESCRIPTOR_BYTES / Chpp.WORD_BYTES;

    public DoorbellWrite {
        ChppBits.range("QP", qp, Chpp.QPS - 1);
        ChppBits.range("address", address, (1L << Chpp.DOORBELL_ADDRESS_BITS) - 1);
        ChppFormatException.require(address % Chpp.WORD_BYTES == 0, Rule.DOORBELL_MISALIGNED,
                "descriptor address 0x" + Long.toHexString(address) + " is not 8-byte aligned");
        ChppFormatException.require(length >= Chpp.WORD_BYTES && length <= Chpp.MAX_DESCRIPTOR_BYTES && length % Chpp.WORD_BYTES == 0,
                Rule.DOORBELL_LENGTH, "descriptor length " + length + " bytes: must be 1..512 words (8..4096 bytes)");
    }

    /** The byte offset of this QP's doorbell in the function's window. */
    public long offset() {
        return (long) qp << Chpp.DOORBELL_PAGE_BITS;
    }

    /** The 64-bit data written. */
    public long data() {
        return L.zero().with(L.ADDRESS, address).with(L.WORDS, length / Chpp.WORD_BYTES).get(new Field("data", 0, 64));
    }

    /**
     * Decodes a 64-bit write at {@code offset} of a function's doorbell window. Rules: offset (0, 4096, 8192 or
     * 12288), reserved bits 63:62, Words 1..512, address alignment.
     */
    public static DoorbellWrite decode(long offset, long data) {
        ChppFormatException.require(offset >= 0 && offset % Chpp.DOORBELL_PAGE == 0 && offset < (long) Chpp.QPS * Chpp.DOORBELL_PAGE,
                Rule.DOORBELL_OFFSET, "doorbell write at offset 0x" + Long.toHexString(offset)
                        + ", must be QP x 0x1000 for QP 0..3");
        BitVector v = BitVector.fromLimbs(64, data);
        ChppBits.reservedZero(L.layout(), v, 0);
        long words = v.get(L.WORDS);
        ChppFormatException.require(words >= 1 && words <= MAX_WORDS, Rule.DOORBELL_LENGTH,
                "descriptor length " + words + " words: must be 1..512 words (8..4096 bytes)");
        return new DoorbellWrite((int) (offset >> Chpp.DOORBELL_PAGE_BITS), v.get(L.ADDRESS), (int) words * Chpp.WORD_BYTES);
    }
}
