package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.Set;
import java.util.TreeSet;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

class LfsrTest {
    static final class Both extends Module {
        final Bool en = input(Bool());
        final UInt fib;
        final UInt gal;

        Both(int width, long seed) {
            fib = output(UInt(width));
            gal = output(UInt(width));
            fib.assign(Lfsr.fibonacci(width, en, seed));
            gal.assign(Lfsr.galois(width, en, seed));
        }
    }

    static Simulator sim(int width, long seed) {
        Simulator sim = Simulator.of(() -> new Both(width, seed));
        sim.reset();
        return sim;
    }

    @Test
    void hardwareHasMaximalPeriodAndNeverZero() {
        for (int w = 2; w <= 12; w++) {
            Simulator sim = sim(w, 1);
            Both t = (Both) sim.circuit().top();
            sim.poke(t.en, 1);
            Set<Long> fibSeen = new TreeSet<>();
            Set<Long> galSeen = new TreeSet<>();
            long period = (1L << w) - 1;
            for (long c = 0; c < period; c++) {
                assertThat(fibSeen.add(sim.peek(t.fib))).as("width %d: fibonacci repeats after %d steps", w, c).isTrue();
                assertThat(galSeen.add(sim.peek(t.gal))).as("width %d: galois repeats after %d steps", w, c).isTrue();
                sim.step();
            }
            assertThat(fibSeen).as("width %d", w).hasSize((int) period).doesNotContain(0L);
            assertThat(galSeen).as("width %d", w).hasSize((int) period).doesNotContain(0L);
            assertThat(sim.peek(t.fib)).as("back to the seed").isEqualTo(1);
            assertThat(sim.peek(t.gal)).isEqualTo(1);
        }
    }

    @Test
    void softwareModelHasMaximalPeriodUpTo20Bits() {
        for (int w = 2; w <= 20; w++) {
            long f = 1;
            long g = 1;
            long period = (1L << w) - 1;
            for (long c = 1; c <= period; c++) {
                f = Lfsr.nextFibonacci(w, f);
                g = Lfsr.nextGalois(w, g);
                if (c < period) {
                    assertThat(f).as("width %d step %d", w, c).isNotEqualTo(1).isNotZero();
                    assertThat(g).as("width %d step %d", w, c).isNotEqualTo(1).isNotZero();
                }
            }
            assertThat(f).isEqualTo(1);
            assertThat(g).isEqualTo(1);
        }
    }

    @Test
    void wideHardwareFollowsTheModelAndHoldsWhenDisabled() {
        for (int w : new int[] {17, 33, 64}) {
            long seed = w == 64 ? 0x8000_0000_0000_0001L : 0x1ABCDL & ((1L << w) - 1);
            Simulator sim = sim(w, seed);
            Both t = (Both) sim.circuit().top();
            long f = seed;
            long g = seed;
            for (int c = 0; c < 300; c++) {
                boolean en = c % 7 != 3;
                sim.poke(t.en, en);
                assertThat(sim.peekBig(t.fib)).as("width %d cycle %d", w, c).isEqualTo(unsigned(f));
                assertThat(sim.peekBig(t.gal)).as("width %d cycle %d", w, c).isEqualTo(unsigned(g));
                sim.step();
                if (en) {
                    f = Lfsr.nextFibonacci(w, f);
                    g = Lfsr.nextGalois(w, g);
                }
            }
        }
    }

    static BigInteger unsigned(long v) {
        return new BigInteger(Long.toUnsignedString(v));
    }

    @Test
    void rejectsZeroOrOversizedSeedAndBadWidth() {
        assertThatThrownBy(() -> sim(8, 0)).hasMessageContaining("non-zero");
        assertThatThrownBy(() -> sim(8, 256)).hasMessageContaining("fit in 8 bits");
        assertThatThrownBy(() -> Lfsr.taps(65)).hasMessageContaining("2..64");
    }

    // ------------------------------------------------------------------ the tap table, checked by algebra

    /**
     * Every polynomial in the table is primitive: x has multiplicative order exactly 2^n - 1 modulo it
     * (which also rules out reducible polynomials, whose unit group is smaller). Both LFSR forms built
     * from a primitive polynomial, or its reciprocal, have period 2^n - 1.
     */
    @Test
    void everyTapSetIsAPrimitivePolynomial() {
        for (int n = 2; n <= 64; n++) {
            int[] taps = Lfsr.taps(n);
            assertThat(taps[0]).isEqualTo(n);
            long low = 1;
            for (int i = 1; i < taps.length; i++) {
                low |= 1L << taps[i];
            }
            BigInteger order = BigInteger.ONE.shiftLeft(n).subtract(BigInteger.ONE);
            assertThat(powX(order, low, n)).as("x^(2^%d-1) mod P", n).isEqualTo(1);
            for (BigInteger q : primeFactors(order)) {
                assertThat(powX(order.divide(q), low, n)).as("width %d: x^((2^n-1)/%s) must not be 1", n, q).isNotEqualTo(1);
            }
        }
    }

    /** a * b modulo x^n + low, polynomials over GF(2) as bit masks. */
    static long mulMod(long a, long b, long low, int n) {
        long mask = n == 64 ? -1L : (1L << n) - 1;
        long r = 0;
        for (int i = n - 1; i >= 0; i--) {
            boolean carry = (r >>> (n - 1) & 1) != 0;
            r = r << 1 & mask;
            if (carry) {
                r ^= low;
            }
            if ((b >>> i & 1) != 0) {
                r ^= a;
            }
        }
        return r;
    }

    static long powX(BigInteger e, long low, int n) {
        long result = 1;
        long base = 2;
        for (int i = e.bitLength() - 1; i >= 0; i--) {
            result = mulMod(result, result, low, n);
            if (e.testBit(i)) {
                result = mulMod(result, base, low, n);
            }
        }
        return result;
    }

    static Set<BigInteger> primeFactors(BigInteger m) {
        Set<BigInteger> out = new TreeSet<>();
        factor(m, out);
        return out;
    }

    private static void factor(BigInteger m, Set<BigInteger> out) {
        if (m.equals(BigInteger.ONE)) {
            return;
        }
        if (m.isProbablePrime(40)) {
            out.add(m);
            return;
        }
        for (long c = 1; ; c++) {
            BigInteger d = pollardRho(m, BigInteger.valueOf(c));
            if (!d.equals(m)) {
                factor(d, out);
                factor(m.divide(d), out);
                return;
            }
        }
    }

    private static BigInteger pollardRho(BigInteger m, BigInteger c) {
        if (!m.testBit(0)) {
            return BigInteger.TWO;
        }
        BigInteger x = BigInteger.TWO;
        BigInteger y = x;
        BigInteger d = BigInteger.ONE;
        while (d.equals(BigInteger.ONE)) {
            x = x.multiply(x).add(c).mod(m);
            y = y.multiply(y).add(c).mod(m);
            y = y.multiply(y).add(c).mod(m);
            d = x.subtract(y).abs().gcd(m);
        }
        return d;
    }

    @Test
    void factoringHelperIsRight() {
        assertThat(primeFactors(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE))).extracting(BigInteger::longValue)
                .containsExactly(3L, 5L, 17L, 257L, 641L, 65537L, 6700417L);
        assertThat(primeFactors(BigInteger.ONE.shiftLeft(62).subtract(BigInteger.ONE))).extracting(BigInteger::longValue)
                .containsExactly(3L, 715827883L, 2147483647L);
    }
}
