package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.sim.WideTestSupport.allWidths;
import static org.flitkit.hdl.sim.WideTestSupport.hex;
import static org.flitkit.hdl.sim.WideTestSupport.interp;
import static org.flitkit.hdl.sim.WideTestSupport.limbsOf;
import static org.flitkit.hdl.sim.WideTestSupport.maskBig;
import static org.flitkit.hdl.sim.WideTestSupport.toSigned;
import static org.flitkit.hdl.sim.WideTestSupport.trunc;
import static org.flitkit.hdl.sim.WideTestSupport.value;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Every operation on arrays sized exactly {@code limbs(width)} (offset 0), so that reading or
 * writing even one limb past an operand (e.g. the last signal of the state array) throws.
 * Field accesses are placed flush against the top of their value.
 */
class WideExactBoundsTest {

    private static long[] arr(BigInteger v, int w) {
        return limbsOf(v, w);
    }

    private static void expect(long[] d, int dw, BigInteger expected, Supplier<String> ctx) {
        assertThat(d).as(ctx).containsExactly(limbsOf(expected, dw));
    }

    @Test
    void sameWidthOps() {
        SplittableRandom r = new SplittableRandom(701);
        for (int w : allWidths()) {
            for (int k = 0; k < 6; k++) {
                BigInteger a = value(r, w);
                BigInteger b = value(r, w);
                Supplier<String> ctx = () -> String.format("w=%d a=%s b=%s", w, hex(a), hex(b));
                long[] x = arr(a, w);
                long[] y = arr(b, w);
                long[] d = new long[Wide.limbs(w)];
                Wide.add(d, 0, x, 0, y, 0, w);
                expect(d, w, a.add(b), ctx);
                Wide.sub(d, 0, x, 0, y, 0, w);
                expect(d, w, a.subtract(b), ctx);
                Wide.and(d, 0, x, 0, y, 0, w);
                expect(d, w, a.and(b), ctx);
                Wide.or(d, 0, x, 0, y, 0, w);
                expect(d, w, a.or(b), ctx);
                Wide.xor(d, 0, x, 0, y, 0, w);
                expect(d, w, a.xor(b), ctx);
                Wide.not(d, 0, x, 0, w);
                expect(d, w, a.not(), ctx);
                Wide.neg(d, 0, x, 0, w);
                expect(d, w, a.negate(), ctx);
                Wide.copy(d, 0, w, x, 0);
                expect(d, w, a, ctx);
                Wide.mask(d, 0, w);
                Wide.zero(d, 0, w);
                expect(d, w, BigInteger.ZERO, ctx);
                assertThat(Wide.eq(x, 0, y, 0, w)).as(ctx).isEqualTo(a.equals(b));
                assertThat(Wide.ltu(x, 0, y, 0, w)).as(ctx).isEqualTo(a.compareTo(b) < 0);
                assertThat(Wide.lts(x, 0, y, 0, w)).as(ctx)
                    .isEqualTo(toSigned(a, w).compareTo(toSigned(b, w)) < 0);
                assertThat(Wide.isZero(x, 0, w)).as(ctx).isEqualTo(a.signum() == 0);
                assertThat(Wide.orReduce(x, 0, w)).as(ctx).isEqualTo(a.signum() != 0);
                assertThat(Wide.andReduce(x, 0, w)).as(ctx).isEqualTo(a.equals(maskBig(w)));
                assertThat(Wide.xorReduce(x, 0, w)).as(ctx).isEqualTo((a.bitCount() & 1) == 1);
                assertThat(Wide.popCount(x, 0, w)).as(ctx).isEqualTo(a.bitCount());
                assertThat(Wide.bit(x, 0, w, w - 1)).as(ctx).isEqualTo(a.testBit(w - 1));
                assertThat(Wide.bit(x, 0, w, w)).as(ctx).isFalse();
                assertThat(Wide.toBigInteger(x, 0, w, true)).as(ctx).isEqualTo(toSigned(a, w));
                assertThat(Wide.toBinary(x, 0, w)).as(ctx).isEqualTo(a.toString(2));
                Wide.fromBigInteger(d, 0, w, a.negate());
                expect(d, w, a.negate(), ctx);
            }
        }
    }

    @Test
    void resizingShiftsMulDiv() {
        SplittableRandom r = new SplittableRandom(702);
        for (int[] p : WideTestSupport.widthPairs(r, 400)) {
            int aw = p[0];
            int dw = p[1];
            for (int k = 0; k < 4; k++) {
                boolean signed = (k & 1) != 0;
                BigInteger a = value(r, aw);
                BigInteger b = value(r, dw);
                long amt = r.nextInt(Math.max(aw, dw) + 2);
                Supplier<String> ctx = () -> String.format("aw=%d dw=%d signed=%s amt=%d a=%s b=%s",
                    aw, dw, signed, amt, hex(a), hex(b));
                long[] x = arr(a, aw);
                long[] y = arr(b, dw);
                long[] d = new long[Wide.limbs(dw)];
                Wide.extend(d, 0, dw, x, 0, aw, signed);
                expect(d, dw, interp(a, aw, signed), ctx);
                Wide.fromLong(d, 0, dw, a.longValue(), Math.min(aw, 64), signed);
                expect(d, dw, interp(trunc(a, Math.min(aw, 64)), Math.min(aw, 64), signed), ctx);
                Wide.shl(d, 0, dw, x, 0, aw, amt);
                expect(d, dw, WideShiftTest.refShl(a, amt, dw), ctx);
                Wide.shr(d, 0, dw, x, 0, aw, amt, signed);
                expect(d, dw, WideShiftTest.refShr(a, aw, amt, dw, signed), ctx);
                long[] prod = new long[Wide.limbs(aw + dw)];
                Wide.mul(prod, 0, aw + dw, x, 0, aw, y, 0, dw, signed);
                BigInteger ai = interp(a, aw, signed);
                BigInteger bi = interp(b, dw, signed);
                expect(prod, aw + dw, ai.multiply(bi), ctx);
                long[] scratch = new long[Wide.divScratch(aw, dw)];
                long[] q = new long[Wide.limbs(aw)];
                Wide.div(q, 0, aw, x, 0, aw, y, 0, dw, signed, scratch, 0);
                expect(q, aw, bi.signum() == 0 ? BigInteger.ZERO : ai.divide(bi), ctx);
                Wide.rem(d, 0, dw, x, 0, aw, y, 0, dw, signed, scratch, 0);
                expect(d, dw, bi.signum() == 0 ? BigInteger.ZERO : ai.remainder(bi), ctx);
            }
        }
    }

    @Test
    void fieldsFlushAgainstTheTop() {
        SplittableRandom r = new SplittableRandom(703);
        for (int aw : allWidths()) {
            for (int k = 0; k < 8; k++) {
                BigInteger a = value(r, aw);
                long[] x = arr(a, aw);
                int width = 1 + r.nextInt(Math.min(64, aw));
                int lo = aw - width;
                Supplier<String> ctx = () -> String.format("aw=%d lo=%d width=%d a=%s", aw, lo, width, hex(a));
                assertThat(Wide.extract(x, 0, lo, width)).as(ctx)
                    .isEqualTo(a.shiftRight(lo).and(maskBig(width)).longValue());

                int dw = 1 + r.nextInt(aw);
                int wlo = aw - dw;
                long[] d = new long[Wide.limbs(dw)];
                Wide.extractWide(d, 0, dw, x, 0, wlo);
                expect(d, dw, a.shiftRight(wlo), () -> ctx.get() + " extractWide dw=" + dw);

                long[] cat = new long[Wide.limbs(aw)];
                long v = value(r, width).longValue();
                Wide.insert(cat, 0, lo, v, width);
                expect(cat, aw, trunc(BigInteger.valueOf(v), 64).shiftLeft(lo), () -> ctx.get() + " insert");

                long[] src = arr(a.shiftRight(wlo), dw);
                long[] cat2 = new long[Wide.limbs(aw)];
                Wide.insertWide(cat2, 0, wlo, src, 0, dw);
                expect(cat2, aw, a.shiftRight(wlo).shiftLeft(wlo), () -> ctx.get() + " insertWide dw=" + dw);
            }
        }
    }
}
