package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.LinkFrame;

/**
 * The link frame's CRC-32C as combinational logic, equal to {@link LinkFrame#crcOf}: CRC is affine over GF(2),
 * so the software CRC of the zero frame and of each unit vector gives, at elaboration, one mask per CRC bit
 * (CRC bit i = xorR(covered bits & mask_i) ^ const_i). docs/th2-link.md, "Frame".
 */
public final class FrameCrc {
    private static final BigInteger[] MASKS = new BigInteger[32];
    private static final long CONSTANT;

    static {
        BitVector zero = BitVector.zero(LinkFrame.BITS);
        int c = LinkFrame.crcOf(zero);
        CONSTANT = Integer.toUnsignedLong(c);
        for (int i = 0; i < 32; i++) {
            MASKS[i] = BigInteger.ZERO;
        }
        for (int j = 0; j < LinkFrame.CRC_COVERED_BITS; j++) {
            int col = LinkFrame.crcOf(zero.flip(j)) ^ c;
            for (int i = 0; i < 32; i++) {
                if ((col >>> i & 1) != 0) {
                    MASKS[i] = MASKS[i].setBit(j);
                }
            }
        }
    }

    private FrameCrc() {
    }

    /** The CRC of the covered bits (the low {@link LinkFrame#CRC_COVERED_BITS} bits of a frame), built inline. */
    public static UInt of(Bits covered) {
        if (covered.width() != LinkFrame.CRC_COVERED_BITS) {
            throw new HdlException("FrameCrc covers " + LinkFrame.CRC_COVERED_BITS + " bits, got " + covered.width());
        }
        UInt p = covered.asUInt();
        Bits[] msbFirst = new Bits[32];
        for (int i = 0; i < 32; i++) {
            Bits b = p.and(lit(MASKS[i], LinkFrame.CRC_COVERED_BITS)).xorR();
            if ((CONSTANT >>> i & 1) != 0) {
                b = b.asUInt().not();
            }
            msbFirst[31 - i] = b;
        }
        return cat(msbFirst);
    }
}
