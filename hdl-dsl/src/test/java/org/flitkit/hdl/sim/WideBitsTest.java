package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.sim.WideTestSupport.allWidths;
import static org.flitkit.hdl.sim.WideTestSupport.capFor;
import static org.flitkit.hdl.sim.WideTestSupport.hex;
import static org.flitkit.hdl.sim.WideTestSupport.maskBig;
import static org.flitkit.hdl.sim.WideTestSupport.pow2;
import static org.flitkit.hdl.sim.WideTestSupport.randomBits;
import static org.flitkit.hdl.sim.WideTestSupport.toSigned;
import static org.flitkit.hdl.sim.WideTestSupport.trunc;
import static org.flitkit.hdl.sim.WideTestSupport.value;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.flitkit.hdl.sim.WideTestSupport.Mem;
import org.junit.jupiter.api.Test;

/** Bit fields, concatenation, comparisons, reductions and conversions. */
class WideBitsTest {

    // ------------------------------------------------------------------------- extract

    @Test
    void extractEveryOffset() {
        SplittableRandom r = new SplittableRandom(501);
        for (int aw : allWidths()) {
            for (int lo = 0; lo < aw; lo++) {
                int maxW = Math.min(64, aw - lo);
                for (int width : new int[] {maxW, 1 + r.nextInt(maxW)}) {
                    BigInteger a = value(r, aw);
                    Mem mem = new Mem(r, capFor(aw, 1));
                    int aoff = mem.put(a, aw);
                    mem.seal();
                    long got = Wide.extract(mem.m, aoff, lo, width);
                    long expected = a.shiftRight(lo).and(maskBig(width)).longValue();
                    assertThat(got).as("extract aw=%d lo=%d width=%d a=%s", aw, lo, width, hex(a))
                        .isEqualTo(expected);
                    final int flo = lo;
                    mem.checkUntouched(() -> "extract must not write, lo=" + flo);
                }
            }
        }
    }

    @Test
    void extractWideEveryOffset() {
        SplittableRandom r = new SplittableRandom(502);
        for (int aw : allWidths()) {
            int step = aw > 300 ? 7 : 1;
            for (int lo = 0; lo < aw; lo += step) {
                for (int dw : new int[] {aw - lo, 1 + r.nextInt(aw - lo)}) {
                    BigInteger a = value(r, aw);
                    boolean alias = r.nextBoolean();
                    Mem mem = new Mem(r, capFor(aw, 2));
                    int aoff = mem.put(a, aw);
                    int doff = alias ? aoff : mem.alloc(dw);
                    mem.seal();
                    Wide.extractWide(mem.m, doff, dw, mem.m, aoff, lo);
                    final int flo = lo;
                    mem.check(doff, dw, a.shiftRight(lo), () -> String.format(
                        "extractWide aw=%d lo=%d dw=%d alias=%s a=%s", aw, flo, dw, alias, hex(a)));
                }
            }
        }
    }

    // -------------------------------------------------------------------------- insert

    @Test
    void insertEveryOffset() {
        SplittableRandom r = new SplittableRandom(503);
        for (int dw : allWidths()) {
            for (int lo = 0; lo < dw; lo++) {
                int xw = 1 + r.nextInt(Math.min(64, dw - lo));
                if ((lo & 3) == 0) {
                    xw = Math.min(64, dw - lo);
                }
                long x = WideTestSupport.longValue(r, xw);
                BigInteger field = maskBig(xw).shiftLeft(lo);
                BigInteger before = value(r, dw).andNot(field);        // other fields already present
                Mem mem = new Mem(r, capFor(dw, 1));
                int doff = mem.put(before, dw);
                mem.seal();
                Wide.insert(mem.m, doff, lo, x, xw);
                BigInteger xb = trunc(BigInteger.valueOf(x), 64);
                final int flo = lo;
                final int fxw = xw;
                mem.check(doff, dw, before.or(xb.shiftLeft(lo)), () -> String.format(
                    "insert dw=%d lo=%d xw=%d x=%016x before=%s", dw, flo, fxw, x, hex(before)));
            }
        }
    }

    @Test
    void insertWideEveryOffset() {
        SplittableRandom r = new SplittableRandom(504);
        for (int dw : allWidths()) {
            int step = dw > 300 ? 5 : 1;
            for (int lo = 0; lo < dw; lo += step) {
                int aw = 1 + r.nextInt(dw - lo);
                if ((lo & 3) == 0) {
                    aw = dw - lo;
                }
                BigInteger a = value(r, aw);
                BigInteger field = maskBig(aw).shiftLeft(lo);
                BigInteger before = value(r, dw).andNot(field);
                Mem mem = new Mem(r, capFor(dw, 2));
                int doff = mem.put(before, dw);
                int aoff = mem.put(a, aw);
                mem.seal();
                Wide.insertWide(mem.m, doff, lo, mem.m, aoff, aw);
                final int flo = lo;
                final int faw = aw;
                mem.check(doff, dw, before.or(a.shiftLeft(lo)), () -> String.format(
                    "insertWide dw=%d lo=%d aw=%d a=%s before=%s", dw, flo, faw, hex(a), hex(before)));
            }
        }
    }

    @Test
    void concatenationBuiltFromInserts() {
        // How the code generator builds {f_k, ..., f_1, f_0}: zero, then insert each field.
        SplittableRandom r = new SplittableRandom(505);
        for (int t = 0; t < 3000; t++) {
            int nFields = 1 + r.nextInt(12);
            List<int[]> widths = new ArrayList<>();
            List<BigInteger> vals = new ArrayList<>();
            int dw = 0;
            for (int i = 0; i < nFields; i++) {
                int fw = r.nextInt(3) == 0 ? 1 + r.nextInt(200) : 1 + r.nextInt(64);
                widths.add(new int[] {fw});
                vals.add(value(r, fw));
                dw += fw;
            }
            Mem mem = new Mem(r, capFor(dw, 2) + nFields * 8);
            int[] offs = new int[nFields];
            for (int i = 0; i < nFields; i++) {
                offs[i] = mem.put(vals.get(i), widths.get(i)[0]);
            }
            int doff = mem.alloc(dw);
            mem.seal();
            Wide.zero(mem.m, doff, dw);
            BigInteger expected = BigInteger.ZERO;
            int lo = 0;
            StringBuilder desc = new StringBuilder();
            for (int i = 0; i < nFields; i++) {
                int fw = widths.get(i)[0];
                if (fw <= 64 && r.nextBoolean()) {
                    Wide.insert(mem.m, doff, lo, vals.get(i).longValue(), fw);
                } else {
                    Wide.insertWide(mem.m, doff, lo, mem.m, offs[i], fw);
                }
                expected = expected.or(vals.get(i).shiftLeft(lo));
                desc.append(fw).append("'").append(hex(vals.get(i))).append(' ');
                lo += fw;
            }
            final int fdw = dw;
            mem.check(doff, dw, expected, () -> "concat dw=" + fdw + " fields(lsb first)=" + desc);
        }
    }

    // -------------------------------------------------------------------- comparisons

    @Test
    void comparisons() {
        SplittableRandom r = new SplittableRandom(506);
        for (int w : allWidths()) {
            for (int k = 0; k < 60; k++) {
                BigInteger a = value(r, w);
                BigInteger b;
                switch (k % 4) {
                    case 0:
                        b = a;                                      // equal
                        break;
                    case 1:
                        b = a.flipBit(r.nextInt(w));                // differ in one bit
                        break;
                    case 2:
                        b = trunc(a.add(BigInteger.valueOf(r.nextInt(3) - 1)), w); // neighbours
                        break;
                    default:
                        b = value(r, w);
                }
                boolean same = k % 8 == 0;                          // same region
                Mem mem = new Mem(r, capFor(w, 2));
                int aoff = mem.put(a, w);
                int boff = same ? aoff : mem.put(b, w);
                BigInteger bb = same ? a : b;
                mem.seal();
                String ctx = String.format("w=%d a=%s b=%s", w, hex(a), hex(bb));
                assertThat(Wide.eq(mem.m, aoff, mem.m, boff, w)).as("eq " + ctx).isEqualTo(a.equals(bb));
                assertThat(Wide.ltu(mem.m, aoff, mem.m, boff, w)).as("ltu " + ctx)
                    .isEqualTo(a.compareTo(bb) < 0);
                assertThat(Wide.lts(mem.m, aoff, mem.m, boff, w)).as("lts " + ctx)
                    .isEqualTo(toSigned(a, w).compareTo(toSigned(bb, w)) < 0);
                assertThat(Wide.lts(mem.m, boff, mem.m, aoff, w)).as("lts swapped " + ctx)
                    .isEqualTo(toSigned(bb, w).compareTo(toSigned(a, w)) < 0);
                mem.checkUntouched(() -> "compare must not write " + ctx);
            }
        }
    }

    // --------------------------------------------------------------------- reductions

    @Test
    void reductionsAndPopCount() {
        SplittableRandom r = new SplittableRandom(507);
        for (int w : allWidths()) {
            for (int k = 0; k < 40; k++) {
                BigInteger a = k == 0 ? maskBig(w) : k == 1 ? BigInteger.ZERO : value(r, w);
                Mem mem = new Mem(r, capFor(w, 1));
                int off = mem.put(a, w);
                String ctx = String.format("w=%d a=%s", w, hex(a));
                assertThat(Wide.isZero(mem.m, off, w)).as("isZero " + ctx).isEqualTo(a.signum() == 0);
                assertThat(Wide.orReduce(mem.m, off, w)).as("orReduce " + ctx).isEqualTo(a.signum() != 0);
                assertThat(Wide.andReduce(mem.m, off, w)).as("andReduce " + ctx).isEqualTo(a.equals(maskBig(w)));
                assertThat(Wide.xorReduce(mem.m, off, w)).as("xorReduce " + ctx)
                    .isEqualTo((a.bitCount() & 1) == 1);
                assertThat(Wide.popCount(mem.m, off, w)).as("popCount " + ctx).isEqualTo(a.bitCount());
            }
        }
    }

    @Test
    void bitAnyIndex() {
        SplittableRandom r = new SplittableRandom(508);
        long[] huge = {Integer.MAX_VALUE, 1L << 32, (1L << 32) + 1, Long.MAX_VALUE, Long.MIN_VALUE, -1L};
        for (int w : allWidths()) {
            BigInteger a = value(r, w);
            Mem mem = new Mem(r, capFor(w, 1));
            int off = mem.put(a, w);
            for (long i = -3; i < w + 70; i++) {
                boolean expected = i >= 0 && i < w && a.testBit((int) i);
                assertThat(Wide.bit(mem.m, off, w, i)).as("bit w=%d i=%d a=%s", w, i, hex(a))
                    .isEqualTo(expected);
            }
            for (long i : huge) {
                assertThat(Wide.bit(mem.m, off, w, i)).as("bit w=%d i=%d", w, i).isFalse();
            }
        }
    }

    // -------------------------------------------------------------------- conversions

    @Test
    void bigIntegerRoundTrip() {
        SplittableRandom r = new SplittableRandom(509);
        for (int w : allWidths()) {
            for (int k = 0; k < 20; k++) {
                // arbitrary sign and length, including longer than w: two's complement truncation
                BigInteger x = randomBits(r, 1 + r.nextInt(w + 130));
                if (r.nextBoolean()) {
                    x = x.negate();
                }
                final BigInteger fx = x;
                Mem mem = new Mem(r, capFor(w, 1));
                int off = mem.alloc(w);
                mem.seal();
                Wide.fromBigInteger(mem.m, off, w, x);
                mem.check(off, w, x, () -> String.format("fromBigInteger w=%d x=%s", w, hex(fx)));
                BigInteger u = trunc(x, w);
                assertThat(Wide.toBigInteger(mem.m, off, w, false)).as("unsigned w=%d x=%s", w, hex(x))
                    .isEqualTo(u);
                assertThat(Wide.toBigInteger(mem.m, off, w, true)).as("signed w=%d x=%s", w, hex(x))
                    .isEqualTo(toSigned(u, w));
            }
            long[] m = new long[Wide.limbs(w)];
            Wide.fromBigInteger(m, 0, w, pow2(w - 1));
            assertThat(Wide.toBigInteger(m, 0, w, true)).isEqualTo(pow2(w - 1).negate());
        }
    }

    @Test
    void toBinaryHasNoLeadingZeros() {
        SplittableRandom r = new SplittableRandom(510);
        for (int w : allWidths()) {
            for (int k = 0; k < 20; k++) {
                BigInteger a = value(r, w);
                Mem mem = new Mem(r, capFor(w, 1));
                int off = mem.put(a, w);
                assertThat(Wide.toBinary(mem.m, off, w)).as("w=%d a=%s", w, hex(a)).isEqualTo(a.toString(2));
            }
        }
        assertThat(Wide.toBinary(new long[2], 0, 100)).isEqualTo("0");
        assertThat(Wide.toBinary(new long[] {5}, 0, 3)).isEqualTo("101");
    }
}
