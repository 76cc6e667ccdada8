package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.function.ToLongFunction;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.LinkFrame;

/**
 * The link layer's checks as combinational logic, equal to their software definitions: the frame's CRC-32C
 * ({@link LinkFrame#crcOf}) and the training word's CRC-8 ({@link LinkFrame#trainCheck}). A CRC is affine over
 * GF(2), so the software CRC of zero and of each unit vector gives, at elaboration, one mask per check bit
 * (check bit i = xorR(covered bits & mask_i) ^ const_i). docs/th2-link.md, "Frame" and "Lanes".
 */
public final class FrameCrc {
    private static final Affine FRAME = new Affine(LinkFrame.CRC_COVERED_BITS, 32,
            v -> Integer.toUnsignedLong(LinkFrame.crcOf(BitVector.zero(LinkFrame.BITS).withSlice(0, v))));
    /** Bits of a training word under its check. */
    public static final int TRAIN_COVERED_BITS = 25;
    private static final Affine TRAIN = new Affine(TRAIN_COVERED_BITS, 8, v -> LinkFrame.trainCheck(v.limbs()[0]));

    private FrameCrc() {
    }

    /** The CRC of the covered bits (the low {@link LinkFrame#CRC_COVERED_BITS} bits of a frame), built inline. */
    public static UInt of(Bits covered) {
        return FRAME.of(covered, "FrameCrc");
    }

    /** The check of a training word's low {@link #TRAIN_COVERED_BITS} bits, built inline. */
    public static UInt trainCheck(Bits covered) {
        return TRAIN.of(covered, "the training-word check");
    }

    /** An affine map GF(2)^in -> GF(2)^out taken from its software definition. */
    private static final class Affine {
        private final int in;
        private final BigInteger[] masks;
        private final long constant;

        Affine(int in, int out, ToLongFunction<BitVector> f) {
            this.in = in;
            BitVector zero = BitVector.zero(in);
            constant = f.applyAsLong(zero);
            masks = new BigInteger[out];
            java.util.Arrays.fill(masks, BigInteger.ZERO);
            for (int j = 0; j < in; j++) {
                long col = f.applyAsLong(zero.flip(j)) ^ constant;
                for (int i = 0; i < out; i++) {
                    if ((col >>> i & 1) != 0) {
                        masks[i] = masks[i].setBit(j);
                    }
                }
            }
        }

        UInt of(Bits covered, String what) {
            if (covered.width() != in) {
                throw new HdlException(what + " covers " + in + " bits, got " + covered.width());
            }
            UInt p = covered.asUInt();
            int out = masks.length;
            Bits[] msbFirst = new Bits[out];
            for (int i = 0; i < out; i++) {
                Bits b = p.and(lit(masks[i], in)).xorR();
                if ((constant >>> i & 1) != 0) {
                    b = b.asUInt().not();
                }
                msbFirst[out - 1 - i] = b;
            }
            return cat(msbFirst);
        }
    }
}
