package org.flitkit.formats.chpp;

import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Layout;

/** Argument checks and byte conversions shared by the cHPP formats (docs/chpp-formats.md, "Bit order"). */
final class ChppBits {

    private ChppBits() {
    }

    /** A field value given by a caller outside 0..max: a plain argument error (not a decoding rule). */
    static void range(String what, long value, long max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(what + " " + value + " outside 0.." + max);
        }
    }

    static void notNull(String what, Object o) {
        if (o == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
    }

    /** Host-memory bytes (little-endian 64-bit words): byte i = bits 8i+7..8i. */
    static BitVector fromLE(byte[] bytes) {
        return BitVector.fromBytesLE(8 * bytes.length, bytes);
    }

    /** Wire bytes of the header (big-endian, as PCIe): byte 0 = bits 127..120. */
    static BitVector fromBE(byte[] bytes) {
        byte[] le = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            le[i] = bytes[bytes.length - 1 - i];
        }
        return fromLE(le);
    }

    static byte[] toBE(BitVector v) {
        byte[] le = v.toBytesLE();
        byte[] be = new byte[le.length];
        for (int i = 0; i < le.length; i++) {
            be[i] = le[le.length - 1 - i];
        }
        return be;
    }

    /**
     * Refuses set bits outside the layout's fields ({@link Rule#RESERVED_BITS}), naming the first gap found;
     * {@code offset} is where {@code bits} sits in the enclosing value, for the message only.
     */
    static void reservedZero(Layout layout, BitVector bits, int offset) {
        for (Field gap : layout.reserved()) {
            if (!bits.slice(gap).isZero()) {
                throw new ChppFormatException(Rule.RESERVED_BITS, layout.name() + ": reserved bits [" + gap.bits()
                        + "] must be 0" + (offset == 0 ? "" : " (at descriptor bit " + (gap.lsb() + offset) + ")"));
            }
        }
    }

    static void size(String what, byte[] bytes, int expected) {
        ChppBits.notNull(what, bytes);
        if (bytes.length != expected) {
            throw new ChppFormatException(Rule.WRONG_SIZE, what + " is " + expected + " bytes, got " + bytes.length);
        }
    }
}
