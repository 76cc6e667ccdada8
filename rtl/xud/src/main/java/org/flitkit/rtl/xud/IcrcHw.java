package org.flitkit.rtl.xud;

import static org.flitkit.hdl.Hdl.*;
import java.math.BigInteger;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;

/**
 * The ICRC of a packet container in logic, equal to {@link XudFormat#icrc}: CRC-32 is affine over GF(2),
 * so at elaboration the software CRC gives, for each of the 32 CRC bits, the mask of container bits it
 * depends on; CRC bit i = xorR(container & mask_i) ^ const_i. Paper section 2.2 (the receiver checks the
 * CRC); the sender fills it in.
 */
public final class IcrcHw {
    private static final int COVERED = XudFormat.CONTAINER_BITS - XudFormat.ICRC.width();
    private static final BigInteger[] MASKS = new BigInteger[32];
    private static final long CONSTANT;

    static {
        CONSTANT = XudFormat.icrc(BigInteger.ZERO);
        for (int i = 0; i < 32; i++) {
            MASKS[i] = BigInteger.ZERO;
        }
        for (int j = 0; j < COVERED; j++) {
            long col = XudFormat.icrc(BigInteger.ONE.shiftLeft(j + XudFormat.ICRC.width())) ^ CONSTANT;
            for (int i = 0; i < 32; i++) {
                if ((col >>> i & 1) != 0) {
                    MASKS[i] = MASKS[i].setBit(j);
                }
            }
        }
    }

    private IcrcHw() {
    }

    /** The 32-bit ICRC of {@code container} (its own ICRC field ignored), built inline in the current module. */
    public static UInt of(Bits container) {
        if (container.width() != XudFormat.CONTAINER_BITS) {
            throw new HdlException("IcrcHw needs a " + XudFormat.CONTAINER_BITS + "-bit container, got " + container.width());
        }
        UInt covered = container.bits(XudFormat.CONTAINER_BITS - 1, XudFormat.ICRC.width());
        Bits[] msbFirst = new Bits[32];
        for (int i = 0; i < 32; i++) {
            Bits b = covered.and(lit(MASKS[i], COVERED)).xorR();
            if ((CONSTANT >>> i & 1) != 0) {
                b = b.asUInt().not();
            }
            msbFirst[31 - i] = b;
        }
        return cat(msbFirst);
    }
}
