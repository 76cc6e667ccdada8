package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.sim.WideTestSupport.interp;
import static org.flitkit.hdl.sim.WideTestSupport.trunc;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The 64-bit-or-less helpers, against BigInteger. */
class WideNarrowTest {

    private static final long[] EDGE_LONGS = {0L, 1L, 2L, 3L, -1L, -2L, Long.MIN_VALUE, Long.MAX_VALUE,
        Long.MIN_VALUE + 1, 0xFFFF_FFFFL, 0x1_0000_0000L, 0x8000_0000L, 0x5555_5555_5555_5555L};

    private static final long[] AMOUNTS_EXTRA = {Integer.MAX_VALUE, 1L << 32, (1L << 32) + 1, (1L << 32) + 63,
        Long.MAX_VALUE, Long.MIN_VALUE, -1L, -63L};

    private static BigInteger u64(long x) {
        return trunc(BigInteger.valueOf(x), 64);
    }

    /** A canonical w-bit value: random, or an edge long truncated to w bits. */
    private static long canon(SplittableRandom r, int w, int k) {
        long x = k < EDGE_LONGS.length ? EDGE_LONGS[k] : WideTestSupport.longValue(r, w);
        return x & Wide.maskOf(w);
    }

    @Test
    void sextEveryWidth() {
        SplittableRandom r = new SplittableRandom(601);
        for (int w = 1; w <= 64; w++) {
            for (int k = 0; k < 200; k++) {
                long x = canon(r, w, k);
                long expected = WideTestSupport.toSigned(u64(x), w).longValue();
                assertThat(Wide.sext(x, w)).as("sext w=%d x=%016x", w, x).isEqualTo(expected);
            }
        }
    }

    @Test
    void shlNAllAmounts() {
        SplittableRandom r = new SplittableRandom(602);
        for (int xw = 1; xw <= 64; xw++) {
            for (int k = 0; k < 30; k++) {
                long x = canon(r, xw, k);
                int dw = k % 3 == 0 ? xw : 1 + r.nextInt(64);
                for (long amt = 0; amt <= 140; amt++) {
                    checkShlN(x, amt, dw);
                }
                for (long amt : AMOUNTS_EXTRA) {
                    checkShlN(x, amt, dw);
                }
            }
        }
    }

    private static void checkShlN(long x, long amt, int dw) {
        long expected = WideShiftTest.refShl(u64(x), amt, dw).longValue();
        assertThat(Wide.shlN(x, amt, dw)).as("shlN x=%016x amt=%s dw=%d", x, Long.toUnsignedString(amt), dw)
            .isEqualTo(expected);
    }

    @Test
    void shrNAndSraNAllAmounts() {
        SplittableRandom r = new SplittableRandom(603);
        for (int xw = 1; xw <= 64; xw++) {
            for (int k = 0; k < 30; k++) {
                long x = canon(r, xw, k);
                int dw = k % 3 == 0 ? xw : 1 + r.nextInt(64);
                for (long amt = 0; amt <= 140; amt++) {
                    checkShr(x, xw, amt, dw);
                }
                for (long amt : AMOUNTS_EXTRA) {
                    checkShr(x, xw, amt, dw);
                }
            }
        }
    }

    private static void checkShr(long x, int xw, long amt, int dw) {
        long logical = WideShiftTest.refShr(u64(x), 64, amt, 64, false).longValue();
        assertThat(Wide.shrN(x, amt)).as("shrN x=%016x amt=%s", x, Long.toUnsignedString(amt))
            .isEqualTo(logical);
        long arith = WideShiftTest.refShr(u64(x), xw, amt, dw, true).longValue();
        assertThat(Wide.sraN(x, xw, amt, dw))
            .as("sraN x=%016x xw=%d amt=%s dw=%d", x, xw, Long.toUnsignedString(amt), dw).isEqualTo(arith);
    }

    @Test
    void unsignedDivRem() {
        SplittableRandom r = new SplittableRandom(604);
        for (int k = 0; k < 200_000; k++) {
            long a = k < EDGE_LONGS.length * EDGE_LONGS.length ? EDGE_LONGS[k % EDGE_LONGS.length]
                : WideTestSupport.longValue(r, 1 + r.nextInt(64));
            long b = k < EDGE_LONGS.length * EDGE_LONGS.length ? EDGE_LONGS[k / EDGE_LONGS.length]
                : WideTestSupport.longValue(r, 1 + r.nextInt(64));
            BigInteger ua = u64(a);
            BigInteger ub = u64(b);
            long q = b == 0 ? 0 : ua.divide(ub).longValue();
            long m = b == 0 ? 0 : ua.remainder(ub).longValue();
            assertThat(Wide.divU(a, b)).as("divU %016x / %016x", a, b).isEqualTo(q);
            assertThat(Wide.remU(a, b)).as("remU %016x %% %016x", a, b).isEqualTo(m);
        }
    }

    @Test
    void signedDivRem() {
        SplittableRandom r = new SplittableRandom(605);
        for (int aw = 1; aw <= 64; aw++) {
            for (int k = 0; k < 3000; k++) {
                int bw = k % 4 == 0 ? aw : 1 + r.nextInt(64);
                int dw = k % 3 == 0 ? aw : k % 3 == 1 ? Math.min(64, aw + 1) : 1 + r.nextInt(64);
                long a = canon(r, aw, k % 40);
                long b = canon(r, bw, (k / 40) % 40);
                BigInteger ai = interp(u64(a), aw, true);
                BigInteger bi = interp(u64(b), bw, true);
                long q = bi.signum() == 0 ? 0 : trunc(ai.divide(bi), dw).longValue();
                long m = bi.signum() == 0 ? 0 : trunc(ai.remainder(bi), dw).longValue();
                assertThat(Wide.divS(a, aw, b, bw, dw)).as("divS a=%s(%d) b=%s(%d) dw=%d", ai, aw, bi, bw, dw)
                    .isEqualTo(q);
                assertThat(Wide.remS(a, aw, b, bw, dw)).as("remS a=%s(%d) b=%s(%d) dw=%d", ai, aw, bi, bw, dw)
                    .isEqualTo(m);
            }
        }
        // the Java overflow corner: MIN / -1 and MIN % -1 must not throw
        assertThat(Wide.divS(Long.MIN_VALUE, 64, -1L, 64, 64)).isEqualTo(Long.MIN_VALUE);
        assertThat(Wide.remS(Long.MIN_VALUE, 64, -1L, 64, 64)).isZero();
        assertThat(Wide.divS(0x80, 8, 0xFF, 8, 9)).isEqualTo(0x80);  // -128 / -1 = 128 in 9 bits
        assertThat(Wide.divS(5, 8, 0, 8, 8)).isZero();
        assertThat(Wide.remS(5, 8, 0, 8, 8)).isZero();
    }

    @Test
    void mulHighUnsigned() {
        SplittableRandom r = new SplittableRandom(606);
        for (int k = 0; k < 200_000; k++) {
            long x = k < EDGE_LONGS.length * EDGE_LONGS.length ? EDGE_LONGS[k % EDGE_LONGS.length] : r.nextLong();
            long y = k < EDGE_LONGS.length * EDGE_LONGS.length ? EDGE_LONGS[k / EDGE_LONGS.length] : r.nextLong();
            long expected = u64(x).multiply(u64(y)).shiftRight(64).longValue();
            assertThat(Wide.mulHighU(x, y)).as("mulHighU %016x * %016x", x, y).isEqualTo(expected);
        }
    }
}
