package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.sim.WideTestSupport.EDGE_WIDTHS;
import static org.flitkit.hdl.sim.WideTestSupport.capFor;
import static org.flitkit.hdl.sim.WideTestSupport.hex;
import static org.flitkit.hdl.sim.WideTestSupport.interp;
import static org.flitkit.hdl.sim.WideTestSupport.maskBig;
import static org.flitkit.hdl.sim.WideTestSupport.pow2;
import static org.flitkit.hdl.sim.WideTestSupport.randomBits;
import static org.flitkit.hdl.sim.WideTestSupport.trunc;
import static org.flitkit.hdl.sim.WideTestSupport.value;
import static org.flitkit.hdl.sim.WideTestSupport.widthPairs;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.flitkit.hdl.sim.WideTestSupport.Mem;
import org.junit.jupiter.api.Test;

/** Wide multiply, divide and remainder against BigInteger, signed and unsigned. */
class WideMulDivTest {

    // ---------------------------------------------------------------------------------- mul

    @Test
    void mulAllWidthCombinations() {
        SplittableRandom r = new SplittableRandom(301);
        for (int[] p : widthPairs(r, 1500)) {
            int aw = p[0];
            int bw = p[1];
            int[] dws = {aw + bw, 1 + r.nextInt(aw + bw + 70), Math.max(aw, bw), Math.min(aw, bw), 64, 65,
                aw + bw + 1 + r.nextInt(130)};
            for (int dw : dws) {
                for (int k = 0; k < 4; k++) {
                    runMul(r, aw, bw, dw, value(r, aw), value(r, bw), (k & 1) != 0);
                }
            }
        }
    }

    @Test
    void mulEdgeValues() {
        SplittableRandom r = new SplittableRandom(302);
        for (int aw : EDGE_WIDTHS) {
            for (int bw : EDGE_WIDTHS) {
                BigInteger[] as = edges(aw);
                BigInteger[] bs = edges(bw);
                for (BigInteger a : as) {
                    for (BigInteger b : bs) {
                        runMul(r, aw, bw, aw + bw, a, b, false);
                        runMul(r, aw, bw, aw + bw, a, b, true);
                    }
                }
            }
        }
    }

    @Test
    void mulSameArrayDifferentRegionsAndSameOperand() {
        // a and b may be the same region (squaring); only d must be distinct.
        SplittableRandom r = new SplittableRandom(303);
        for (int w : WideTestSupport.allWidths()) {
            for (int k = 0; k < 6; k++) {
                BigInteger a = value(r, w);
                boolean signed = (k & 1) != 0;
                int dw = 2 * w;
                Mem mem = new Mem(r, capFor(dw, 3));
                int aoff = mem.put(a, w);
                int doff = mem.alloc(dw);
                mem.seal();
                Wide.mul(mem.m, doff, dw, mem.m, aoff, w, mem.m, aoff, w, signed);
                BigInteger ai = interp(a, w, signed);
                mem.check(doff, dw, ai.multiply(ai), () -> String.format("square w=%d signed=%s a=%s",
                    w, signed, hex(a)));
            }
        }
    }

    private static void runMul(SplittableRandom r, int aw, int bw, int dw, BigInteger a, BigInteger b,
                               boolean signed) {
        Mem mem = new Mem(r, capFor(Math.max(dw, Math.max(aw, bw)), 3));
        int aoff = mem.put(a, aw);
        int boff = mem.put(b, bw);
        int doff = mem.alloc(dw);
        mem.seal();
        Wide.mul(mem.m, doff, dw, mem.m, aoff, aw, mem.m, boff, bw, signed);
        BigInteger expected = interp(a, aw, signed).multiply(interp(b, bw, signed));
        mem.check(doff, dw, expected, () -> String.format("mul aw=%d bw=%d dw=%d signed=%s a=%s b=%s",
            aw, bw, dw, signed, hex(a), hex(b)));
    }

    // ------------------------------------------------------------------------------ div/rem

    @Test
    void divRemAllWidthCombinations() {
        SplittableRandom r = new SplittableRandom(311);
        for (int[] p : widthPairs(r, 1500)) {
            int aw = p[0];
            int bw = p[1];
            int[] dws = {aw, bw, aw + 1, 1 + r.nextInt(Math.max(aw, bw) + 70)};
            for (int dw : dws) {
                for (int k = 0; k < 4; k++) {
                    BigInteger a = value(r, aw);
                    BigInteger b = value(r, bw);
                    boolean signed = (k & 1) != 0;
                    runDivRem(r, aw, bw, dw, a, b, signed, Place.SEPARATE);
                }
            }
        }
    }

    @Test
    void divRemSmallQuotients() {
        // Dividend and divisor of similar magnitude: exercises the bit-serial path with few
        // quotient bits, and divisors whose bit length is a multiple of 64 (carry-out of 2R).
        SplittableRandom r = new SplittableRandom(312);
        for (int w : WideTestSupport.allWidths()) {
            for (int k = 0; k < 12; k++) {
                int lb = 1 + r.nextInt(w);
                if (k < 3) {
                    lb = Math.min(w, 64 * (1 + r.nextInt(Math.max(1, w / 64))));
                }
                BigInteger b = randomBits(r, lb).setBit(lb - 1);
                int la = Math.min(w, lb + r.nextInt(5));
                BigInteger a = randomBits(r, la).setBit(la - 1);
                if (k == 4) {
                    a = b;                               // quotient exactly 1
                } else if (k == 5) {
                    a = b.multiply(BigInteger.valueOf(3)).min(maskBig(w)); // near 3
                } else if (k == 6) {
                    a = b.subtract(BigInteger.ONE);      // just below: q = 0
                }
                runDivRem(r, w, w, w, a, b, (k & 1) != 0, Place.SEPARATE);
            }
        }
    }

    @Test
    void divRemVerilogSignedEdgeCases() {
        SplittableRandom r = new SplittableRandom(313);
        for (int w : EDGE_WIDTHS) {
            BigInteger min = pow2(w - 1);
            BigInteger minusOne = maskBig(w);
            BigInteger[] as = edges(w);
            for (BigInteger a : as) {
                for (BigInteger b : edges(w)) {
                    for (int dw : new int[] {w, w + 1}) {
                        runDivRem(r, w, w, dw, a, b, true, Place.SEPARATE);
                        runDivRem(r, w, w, dw, a, b, false, Place.SEPARATE);
                    }
                }
            }
            // MIN / -1 = 2^(w-1): needs w+1 bits, wraps to MIN in w bits
            runDivRem(r, w, w, w + 1, min, minusOne, true, Place.SEPARATE);
            runDivRem(r, w, w, w, min, minusOne, true, Place.SEPARATE);
        }
        // spot-check the semantics directly: -7 / 2 = -3, -7 % 2 = -1, 7 / -2 = -3, 7 % -2 = 1
        int w = 130;
        assertThat(divRem(w, BigInteger.valueOf(-7), BigInteger.valueOf(2))).containsExactly(
            BigInteger.valueOf(-3), BigInteger.valueOf(-1));
        assertThat(divRem(w, BigInteger.valueOf(7), BigInteger.valueOf(-2))).containsExactly(
            BigInteger.valueOf(-3), BigInteger.valueOf(1));
        assertThat(divRem(w, BigInteger.valueOf(-7), BigInteger.valueOf(-2))).containsExactly(
            BigInteger.valueOf(3), BigInteger.valueOf(-1));
    }

    @Test
    void divRemByZeroIsZero() {
        SplittableRandom r = new SplittableRandom(314);
        for (int w : WideTestSupport.allWidths()) {
            for (int k = 0; k < 4; k++) {
                runDivRem(r, w, w, w, value(r, w), BigInteger.ZERO, (k & 1) != 0, Place.SEPARATE);
            }
        }
        assertThat(divRem(200, BigInteger.valueOf(12345), BigInteger.ZERO))
            .containsExactly(BigInteger.ZERO, BigInteger.ZERO);
    }

    @Test
    void divRemAliasedDestination() {
        SplittableRandom r = new SplittableRandom(315);
        for (int[] p : widthPairs(r, 500)) {
            int aw = p[0];
            int bw = p[1];
            for (int k = 0; k < 4; k++) {
                BigInteger a = value(r, aw);
                BigInteger b = value(r, bw);
                boolean signed = (k & 1) != 0;
                runDivRem(r, aw, bw, aw, a, b, signed, Place.D_IS_A);
                runDivRem(r, aw, bw, bw, a, b, signed, Place.D_IS_B);
            }
        }
    }

    @Test
    void divScratchSize() {
        for (int aw = 1; aw <= 1100; aw += 7) {
            for (int bw = 1; bw <= 1100; bw += 11) {
                int n = Wide.divScratch(aw, bw);
                assertThat(n).isEqualTo(Wide.limbs(aw) + 2 * Wide.limbs(bw));
                assertThat(n).isLessThanOrEqualTo(3 * Wide.limbs(Math.max(aw, bw)));
            }
        }
    }

    private enum Place { SEPARATE, D_IS_A, D_IS_B }

    /** Runs both div and rem; the scratch region is exactly divScratch limbs inside guarded memory. */
    private static void runDivRem(SplittableRandom r, int aw, int bw, int dw, BigInteger a, BigInteger b,
                                  boolean signed, Place place) {
        BigInteger ai = interp(a, aw, signed);
        BigInteger bi = interp(b, bw, signed);
        BigInteger q = bi.signum() == 0 ? BigInteger.ZERO : ai.divide(bi);
        BigInteger rm = bi.signum() == 0 ? BigInteger.ZERO : ai.remainder(bi);
        for (int which = 0; which < 2; which++) {
            boolean isDiv = which == 0;
            Mem mem = new Mem(r, capFor(Math.max(dw, Math.max(aw, bw)), 3) + Wide.divScratch(aw, bw) + 4);
            int aoff = mem.put(a, aw);
            int boff = mem.put(b, bw);
            int doff = place == Place.D_IS_A ? aoff : place == Place.D_IS_B ? boff : mem.alloc(dw);
            int sn = Wide.divScratch(aw, bw);
            int soff = mem.allocLimbs(sn);            // garbage-filled scratch
            mem.seal();
            if (isDiv) {
                Wide.div(mem.m, doff, dw, mem.m, aoff, aw, mem.m, boff, bw, signed, mem.m, soff);
            } else {
                Wide.rem(mem.m, doff, dw, mem.m, aoff, aw, mem.m, boff, bw, signed, mem.m, soff);
            }
            mem.checkExcept(doff, dw, isDiv ? q : rm, soff, sn, () -> String.format(
                "%s aw=%d bw=%d dw=%d signed=%s place=%s a=%s (%s) b=%s (%s)", isDiv ? "div" : "rem",
                aw, bw, dw, signed, place, hex(a), ai, hex(b), bi));
        }
    }

    /** Signed w-bit div and rem through the public API, returned as signed BigIntegers. */
    private static BigInteger[] divRem(int w, BigInteger a, BigInteger b) {
        long[] m = new long[5 * Wide.limbs(w) + Wide.divScratch(w, w)];
        int n = Wide.limbs(w);
        Wide.fromBigInteger(m, 0, w, a);
        Wide.fromBigInteger(m, n, w, b);
        Wide.div(m, 2 * n, w, m, 0, w, m, n, w, true, m, 5 * n);
        Wide.rem(m, 3 * n, w, m, 0, w, m, n, w, true, m, 5 * n);
        return new BigInteger[] {Wide.toBigInteger(m, 2 * n, w, true), Wide.toBigInteger(m, 3 * n, w, true)};
    }

    /** 0, 1, 2, -1, -2, MIN, MIN+1, MAX, MAX-1 as w-bit patterns (deduplicated by value use). */
    static BigInteger[] edges(int w) {
        BigInteger[] raw = {BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, BigInteger.valueOf(-1),
            BigInteger.valueOf(-2), pow2(w - 1), pow2(w - 1).add(BigInteger.ONE), pow2(w - 1).subtract(BigInteger.ONE),
            pow2(w - 1).subtract(BigInteger.TWO), BigInteger.valueOf(3), BigInteger.valueOf(-3)};
        BigInteger[] out = new BigInteger[raw.length];
        for (int i = 0; i < raw.length; i++) {
            out[i] = trunc(raw[i], w);
        }
        return out;
    }
}
