package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.sim.WideTestSupport.allWidths;
import static org.flitkit.hdl.sim.WideTestSupport.capFor;
import static org.flitkit.hdl.sim.WideTestSupport.hex;
import static org.flitkit.hdl.sim.WideTestSupport.interp;
import static org.flitkit.hdl.sim.WideTestSupport.maskBig;
import static org.flitkit.hdl.sim.WideTestSupport.trunc;
import static org.flitkit.hdl.sim.WideTestSupport.value;
import static org.flitkit.hdl.sim.WideTestSupport.widthPairs;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.flitkit.hdl.sim.WideTestSupport.Mem;
import org.junit.jupiter.api.Test;

/** Layout helpers, resizing, and same-width add/sub/logic/not/neg, against BigInteger. */
class WideArithmeticTest {

    private static final int CASES = 40;

    /** How operands of a same-width binary op are laid out. */
    private enum Alias { NONE, D_IS_A, D_IS_B, A_IS_B, ALL_SAME }

    @FunctionalInterface
    interface BinOp {
        void apply(long[] d, int doff, long[] a, int aoff, long[] b, int boff, int w);
    }

    @FunctionalInterface
    interface BinRef {
        BigInteger apply(BigInteger a, BigInteger b);
    }

    @Test
    void limbsAndMaskOf() {
        assertThat(Wide.limbs(0)).isZero();
        for (int w = 1; w <= 5000; w++) {
            assertThat(Wide.limbs(w)).as("limbs(%d)", w).isEqualTo((w + 63) / 64);
        }
        for (int w = 0; w <= 64; w++) {
            assertThat(Wide.maskOf(w)).as("maskOf(%d)", w).isEqualTo(maskBig(w).longValue());
        }
        assertThat(Wide.maskOf(64)).isEqualTo(-1L);
    }

    @Test
    void maskClearsOnlyBitsAboveWidth() {
        SplittableRandom r = new SplittableRandom(101);
        for (int w : allWidths()) {
            for (int k = 0; k < 10; k++) {
                Mem mem = new Mem(r, capFor(w, 1));
                int off = mem.alloc(w);        // garbage, i.e. non-canonical top limb
                BigInteger raw = mem.get(off, 64 * Wide.limbs(w));
                mem.seal();
                Wide.mask(mem.m, off, w);
                final int fw = w;
                mem.check(off, w, trunc(raw, w), () -> "mask w=" + fw + " raw=" + hex(raw));
            }
        }
    }

    @Test
    void zeroAndCopy() {
        SplittableRandom r = new SplittableRandom(102);
        for (int w : allWidths()) {
            for (int k = 0; k < 8; k++) {
                final int fw = w;
                BigInteger a = value(r, w);
                Mem mem = new Mem(r, capFor(w, 2));
                int d = mem.alloc(w);
                mem.seal();
                Wide.zero(mem.m, d, w);
                mem.check(d, w, BigInteger.ZERO, () -> "zero w=" + fw);

                mem = new Mem(r, capFor(w, 2));
                int aoff = mem.put(a, w);
                d = mem.alloc(w);
                mem.seal();
                Wide.copy(mem.m, d, w, mem.m, aoff);
                mem.check(d, w, a, () -> "copy w=" + fw + " a=" + hex(a));

                mem = new Mem(r, capFor(w, 1));
                aoff = mem.put(a, w);
                mem.seal();
                Wide.copy(mem.m, aoff, w, mem.m, aoff);
                mem.check(aoff, w, a, () -> "copy aliased w=" + fw + " a=" + hex(a));
            }
        }
    }

    @Test
    void extendTruncatesZeroAndSignExtends() {
        SplittableRandom r = new SplittableRandom(103);
        for (int[] p : widthPairs(r, 2000)) {
            int aw = p[0];
            int dw = p[1];
            for (int k = 0; k < 6; k++) {
                BigInteger a = value(r, aw);
                boolean signed = (k & 1) != 0;
                boolean alias = (k & 2) != 0;
                BigInteger expected = trunc(interp(a, aw, signed), dw);
                Mem mem = new Mem(r, capFor(Math.max(aw, dw), 2));
                int aoff;
                int doff;
                if (alias) {
                    aoff = mem.alloc(Math.max(aw, dw));
                    mem.store(aoff, a, aw);
                    doff = aoff;
                } else {
                    aoff = mem.put(a, aw);
                    doff = mem.alloc(dw);
                }
                mem.seal();
                Wide.extend(mem.m, doff, dw, mem.m, aoff, aw, signed);
                mem.check(doff, dw, expected, () -> String.format(
                    "extend aw=%d dw=%d signed=%s alias=%s a=%s", aw, dw, signed, alias, hex(a)));
            }
        }
    }

    @Test
    void fromLongAndToLong() {
        SplittableRandom r = new SplittableRandom(104);
        for (int xw = 1; xw <= 64; xw++) {
            for (int dw : allWidths()) {
                for (int k = 0; k < 4; k++) {
                    long x = WideTestSupport.longValue(r, xw);
                    boolean signed = (k & 1) != 0;
                    BigInteger xb = trunc(BigInteger.valueOf(x), 64);
                    BigInteger expected = trunc(interp(xb, xw, signed), dw);
                    Mem mem = new Mem(r, capFor(dw, 1));
                    int d = mem.alloc(dw);
                    mem.seal();
                    Wide.fromLong(mem.m, d, dw, x, xw, signed);
                    final int fxw = xw;
                    mem.check(d, dw, expected, () -> String.format(
                        "fromLong xw=%d dw=%d signed=%s x=%016x", fxw, dw, signed, x));
                    assertThat(Wide.toLong(mem.m, d)).isEqualTo(expected.longValue());
                }
            }
        }
    }

    @Test
    void toLongIsLowLimb() {
        SplittableRandom r = new SplittableRandom(105);
        for (int w : allWidths()) {
            BigInteger a = value(r, w);
            Mem mem = new Mem(r, capFor(w, 1));
            int off = mem.put(a, w);
            assertThat(Wide.toLong(mem.m, off)).as("w=%d a=%s", w, hex(a)).isEqualTo(a.longValue());
        }
    }

    @Test
    void add() {
        checkBinary("add", Wide::add, BigInteger::add, 201);
    }

    @Test
    void sub() {
        checkBinary("sub", Wide::sub, BigInteger::subtract, 202);
    }

    @Test
    void and() {
        checkBinary("and", Wide::and, BigInteger::and, 203);
    }

    @Test
    void or() {
        checkBinary("or", Wide::or, BigInteger::or, 204);
    }

    @Test
    void xor() {
        checkBinary("xor", Wide::xor, BigInteger::xor, 205);
    }

    @Test
    void not() {
        checkUnary("not", Wide::not, BigInteger::not, 206);
    }

    @Test
    void neg() {
        checkUnary("neg", Wide::neg, BigInteger::negate, 207);
    }

    @Test
    void addSubCarryChainsAcrossAllLimbs() {
        // all-ones + 1 and 0 - 1 ripple through every limb
        for (int w : allWidths()) {
            for (int lowOnes = 0; lowOnes <= w; lowOnes += Math.max(1, w / 7)) {
                BigInteger ones = maskBig(lowOnes);
                BigInteger one = BigInteger.ONE;
                runBinary("add-ripple", Wide::add, BigInteger::add, w, ones, one, Alias.NONE,
                    new SplittableRandom(w));
                runBinary("sub-ripple", Wide::sub, BigInteger::subtract, w, BigInteger.ZERO.setBit(lowOnes % w),
                    one, Alias.NONE, new SplittableRandom(w));
            }
        }
    }

    private void checkBinary(String name, BinOp op, BinRef ref, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Alias[] modes = Alias.values();
        for (int w : allWidths()) {
            for (int k = 0; k < CASES; k++) {
                runBinary(name, op, ref, w, value(r, w), value(r, w), modes[k % modes.length], r);
            }
        }
    }

    private static void runBinary(String name, BinOp op, BinRef ref, int w, BigInteger a0, BigInteger b0,
                                  Alias mode, SplittableRandom r) {
        BigInteger b = (mode == Alias.A_IS_B || mode == Alias.ALL_SAME) ? a0 : b0;
        Mem mem = new Mem(r, capFor(w, 3));
        int aoff = mem.put(a0, w);
        int boff = (mode == Alias.A_IS_B || mode == Alias.ALL_SAME) ? aoff : mem.put(b, w);
        int doff;
        switch (mode) {
            case D_IS_A:
            case ALL_SAME:
                doff = aoff;
                break;
            case D_IS_B:
                doff = boff;
                break;
            default:
                doff = mem.alloc(w);
        }
        mem.seal();
        op.apply(mem.m, doff, mem.m, aoff, mem.m, boff, w);
        mem.check(doff, w, ref.apply(a0, b), () -> String.format("%s w=%d alias=%s a=%s b=%s",
            name, w, mode, hex(a0), hex(b)));
    }

    @FunctionalInterface
    interface UnOp {
        void apply(long[] d, int doff, long[] a, int aoff, int w);
    }

    private void checkUnary(String name, UnOp op, java.util.function.UnaryOperator<BigInteger> ref, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int w : allWidths()) {
            for (int k = 0; k < CASES; k++) {
                BigInteger a = value(r, w);
                boolean alias = (k & 1) != 0;
                Mem mem = new Mem(r, capFor(w, 2));
                int aoff = mem.put(a, w);
                int doff = alias ? aoff : mem.alloc(w);
                mem.seal();
                op.apply(mem.m, doff, mem.m, aoff, w);
                final int fw = w;
                mem.check(doff, w, ref.apply(a), () -> String.format("%s w=%d alias=%s a=%s",
                    name, fw, alias, hex(a)));
            }
        }
    }
}
