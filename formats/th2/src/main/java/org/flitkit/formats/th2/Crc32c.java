package org.flitkit.formats.th2;

import org.flitkit.formats.core.BitVector;

/**
 * CRC-32C (Castagnoli): poly 0x1EDC6F41, reflected in and out, init and xorout 0xFFFFFFFF,
 * check("123456789") = 0xE3069283. Bit-serial reference the hardware LFSR must match.
 * Spec: the TH-2 management spec, "Management packets and descriptors" (tail-flit CRC).
 */
public final class Crc32c {

    /** The polynomial 0x1EDC6F41 bit-reversed, as used by the reflected algorithm. */
    public static final int POLY_REFLECTED = 0x82F63B78;
    public static final int CHECK = 0xE3069283;

    private Crc32c() {
    }

    public static int compute(byte[] data) {
        int crc = 0xFFFFFFFF;
        for (byte b : data) {
            crc ^= b & 0xFF;
            for (int i = 0; i < 8; i++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ POLY_REFLECTED : crc >>> 1;
            }
        }
        return ~crc;
    }

    /**
     * CRC of a bit vector fed bit 0 first: the vector's little-endian bytes (widths that are
     * a multiple of 8 only, so no padding question arises).
     */
    public static int compute(BitVector bits) {
        if (bits.width() % 8 != 0) {
            throw new IllegalArgumentException("CRC input must be whole bytes, got " + bits.width() + " bits");
        }
        return compute(bits.toBytesLE());
    }
}
