package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Lfsr;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.Th2;

/**
 * PRBS-31 (x^31 + x^28 + 1, the {@link Lfsr#fibonacci} register with XAPP052 taps 31, 28) advanced 198 bits
 * per BIST frame: payload bit k is the k-th new bit, so the register after a frame holds the frame's last 31
 * bits (s[j] = payload[197 - j]) and a checker can lock on any received frame. Software model and the
 * parallel (198-step) logic, both from the same GF(2) matrices. docs/th2-link.md, "BIST".
 */
public final class Prbs31 {
    public static final int WIDTH = 31;
    public static final int FRAME_BITS = Th2.FLIT_BITS;
    /** PAYLOAD[k]: state bits that payload bit k depends on. */
    private static final long[] PAYLOAD = new long[FRAME_BITS];

    static {
        for (int j = 0; j < WIDTH; j++) {
            BitVector out = payload(1L << j);
            for (int k = 0; k < FRAME_BITS; k++) {
                if (out.bit(k)) {
                    PAYLOAD[k] |= 1L << j;
                }
            }
        }
    }

    private Prbs31() {
    }

    /** The 198 payload bits produced from {@code state} (software model). */
    public static BitVector payload(long state) {
        BigInteger bits = BigInteger.ZERO;
        long s = state;
        for (int k = 0; k < FRAME_BITS; k++) {
            s = Lfsr.nextFibonacci(WIDTH, s);
            if ((s & 1) != 0) {
                bits = bits.setBit(k);
            }
        }
        return BitVector.of(FRAME_BITS, bits);
    }

    /** The register after one frame from {@code state}. */
    public static long next(long state) {
        return stateAfter(payload(state));
    }

    /** The register after a frame whose payload is {@code payload}: its last 31 bits, newest at bit 0. */
    public static long stateAfter(BitVector payload) {
        long s = 0;
        for (int j = 0; j < WIDTH; j++) {
            if (payload.bit(FRAME_BITS - 1 - j)) {
                s |= 1L << j;
            }
        }
        return s;
    }

    /** Hardware: the 198 payload bits from a 31-bit state. */
    public static UInt payloadOf(Bits state) {
        UInt s = state.asUInt();
        Bits[] msbFirst = new Bits[FRAME_BITS];
        for (int k = 0; k < FRAME_BITS; k++) {
            msbFirst[FRAME_BITS - 1 - k] = s.and(lit(PAYLOAD[k], WIDTH)).xorR();
        }
        return cat(msbFirst);
    }

    /** Hardware: the state after a frame, from the frame's payload (its last 31 bits, reversed). */
    public static UInt stateAfter(Bits payload) {
        Bits[] msbFirst = new Bits[WIDTH];
        for (int j = 0; j < WIDTH; j++) {
            msbFirst[WIDTH - 1 - j] = payload.bit(FRAME_BITS - 1 - j);
        }
        return cat(msbFirst);
    }
}
