package org.flitkit.rtl.nma.hw;

import static org.flitkit.hdl.Hdl.*;
import java.math.BigInteger;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;

/**
 * Tail-flit CRC-32C of a whole 792-bit packet, combinational, equal to {@link PacketLayout#crcOf}
 * (HopPtr and CRC taken as zero). CRC is affine over GF(2), so at elaboration the software CRC gives a
 * 32 x 792 matrix and a constant; CRC bit i = xorR(packet & mask_i) ^ const_i. Spec: 20-th2-management.md,
 * "Management packets and descriptors" (tail CRC); docs/th2-formats.md "Tail CRC".
 */
public final class Crc32cHw extends Module {
    public final UInt packet = input(UInt(Th2.PACKET_BITS));
    public final UInt crc = output(UInt(32));

    /** mask_i: packet bits that CRC bit i depends on (HopPtr and CRC columns are zero). */
    private static final BigInteger[] MASKS = new BigInteger[32];
    /** CRC of the all-zero packet. */
    private static final long CONSTANT;

    static {
        BitVector zero = BitVector.zero(Th2.PACKET_BITS);
        int c = PacketLayout.crcOf(zero);
        CONSTANT = Integer.toUnsignedLong(c);
        for (int i = 0; i < 32; i++) {
            MASKS[i] = BigInteger.ZERO;
        }
        for (int j = 0; j < Th2.PACKET_BITS; j++) {
            int col = PacketLayout.crcOf(zero.flip(j)) ^ c;
            for (int i = 0; i < 32; i++) {
                if ((col >>> i & 1) != 0) {
                    MASKS[i] = MASKS[i].setBit(j);
                }
            }
        }
    }

    public Crc32cHw() {
        crc.assign(of(packet));
    }

    /** The mask of CRC bit {@code i} (bit j set when packet bit j feeds CRC bit i). */
    public static BigInteger mask(int i) {
        return MASKS[i];
    }

    /** The CRC of the all-zero packet (the affine constant). */
    public static long constant() {
        return CONSTANT;
    }

    /** Builds the CRC logic for {@code packet} inline in the current module: 32 masked XOR reductions. */
    public static UInt of(Bits packet) {
        if (packet.width() != Th2.PACKET_BITS) {
            throw new HdlException("Crc32cHw needs a " + Th2.PACKET_BITS + "-bit packet, got " + packet.width());
        }
        UInt p = packet.asUInt();
        Bits[] msbFirst = new Bits[32];
        for (int i = 0; i < 32; i++) {
            Bits b = p.and(lit(MASKS[i], Th2.PACKET_BITS)).xorR();
            if ((CONSTANT >>> i & 1) != 0) {
                b = b.asUInt().not();
            }
            msbFirst[31 - i] = b;
        }
        return cat(msbFirst);
    }

    /** {@code packet} with its tail CRC field filled in. */
    public static UInt withCrc(Bits packet) {
        return LayoutBits.with(packet, PacketLayout.CRC, of(packet));
    }
}
