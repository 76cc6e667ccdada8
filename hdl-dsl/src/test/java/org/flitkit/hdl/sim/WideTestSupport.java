package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.fail;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Shared helpers for the {@link Wide} property tests: a BigInteger reference model, random value
 * generators biased toward edge cases, and a guarded memory model ({@link Mem}) that places
 * operands at offsets inside a garbage-filled array and verifies that an operation writes exactly
 * its destination limbs, in canonical form, and nothing else.
 */
final class WideTestSupport {

    private WideTestSupport() {
    }

    static final BigInteger ONE = BigInteger.ONE;

    /** Widths that stress limb boundaries and the sizes used by the real designs. */
    static final int[] EDGE_WIDTHS = {1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 66, 100, 127, 128, 129,
        191, 192, 193, 198, 255, 256, 257, 511, 512, 513, 1023, 1024};

    /** 1..300 plus the larger edge widths. */
    static int[] allWidths() {
        TreeSet<Integer> s = new TreeSet<>();
        for (int w = 1; w <= 300; w++) {
            s.add(w);
        }
        for (int w : EDGE_WIDTHS) {
            s.add(w);
        }
        for (int w : new int[] {383, 384, 385, 448, 640, 767, 768, 769, 1000}) {
            s.add(w);
        }
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Width pairs: edge x edge plus random pairs in 1..300. */
    static List<int[]> widthPairs(SplittableRandom r, int randomPairs) {
        List<int[]> out = new ArrayList<>();
        for (int a : EDGE_WIDTHS) {
            for (int b : EDGE_WIDTHS) {
                out.add(new int[] {a, b});
            }
        }
        for (int i = 0; i < randomPairs; i++) {
            out.add(new int[] {1 + r.nextInt(300), 1 + r.nextInt(300)});
        }
        return out;
    }

    static BigInteger pow2(int w) {
        return ONE.shiftLeft(w);
    }

    static BigInteger maskBig(int w) {
        return pow2(w).subtract(ONE);
    }

    /** x mod 2^w as an unsigned pattern (x may be negative). */
    static BigInteger trunc(BigInteger x, int w) {
        return x.and(maskBig(w));
    }

    /** Interprets an unsigned w-bit pattern as two's complement. */
    static BigInteger toSigned(BigInteger u, int w) {
        return u.testBit(w - 1) ? u.subtract(pow2(w)) : u;
    }

    static BigInteger interp(BigInteger u, int w, boolean signed) {
        return signed ? toSigned(u, w) : u;
    }

    static String hex(BigInteger x) {
        return x.signum() < 0 ? "-0x" + x.negate().toString(16) : "0x" + x.toString(16);
    }

    /** Random unsigned w-bit value, heavily biased toward edge cases. */
    static BigInteger value(SplittableRandom r, int w) {
        BigInteger m = maskBig(w);
        switch (r.nextInt(16)) {
            case 0:
                return BigInteger.ZERO;
            case 1:
                return m;                                       // all ones (-1)
            case 2:
                return pow2(w - 1);                             // sign bit only (MIN)
            case 3:
                return pow2(w - 1).subtract(ONE);               // MAX signed
            case 4:
                return trunc(BigInteger.valueOf(r.nextInt(5) - 2), w); // -2..2
            case 5:
                return pow2(r.nextInt(w));                      // single bit
            case 6:
                return m.xor(pow2(r.nextInt(w)));               // single zero bit
            case 7:
                return randomBits(r, Math.min(w, 1 + r.nextInt(70)));   // small magnitude
            case 8:
                return trunc(randomBits(r, Math.min(w, 1 + r.nextInt(70))).negate(), w); // small negative
            case 9:
                return randomBits(r, 1 + r.nextInt(w));         // random bit length
            case 10:
                return limbPattern(r, w);                       // runs of 0 / -1 limbs
            default:
                return randomBits(r, w);
        }
    }

    /** Non-zero random value (for divisors when zero is not wanted). */
    static BigInteger nonZero(SplittableRandom r, int w) {
        BigInteger v;
        do {
            v = value(r, w);
        } while (v.signum() == 0);
        return v;
    }

    static BigInteger randomBits(SplittableRandom r, int bits) {
        BigInteger v = BigInteger.ZERO;
        for (int i = 0; i < bits; i += 64) {
            v = v.or(BigInteger.valueOf(r.nextLong()).and(maskBig(64)).shiftLeft(i));
        }
        return trunc(v, bits);
    }

    private static BigInteger limbPattern(SplittableRandom r, int w) {
        BigInteger v = BigInteger.ZERO;
        for (int i = 0; i < w; i += 64) {
            long limb;
            switch (r.nextInt(4)) {
                case 0:
                    limb = 0L;
                    break;
                case 1:
                    limb = -1L;
                    break;
                case 2:
                    limb = Long.MIN_VALUE;
                    break;
                default:
                    limb = r.nextLong();
            }
            v = v.or(BigInteger.valueOf(limb).and(maskBig(64)).shiftLeft(i));
        }
        return trunc(v, w);
    }

    /** Random long value biased toward edges, truncated to w bits (1..64). */
    static long longValue(SplittableRandom r, int w) {
        return value(r, w).longValue();
    }

    /** Expected limbs of x (taken mod 2^w) in canonical form. */
    static long[] limbsOf(BigInteger x, int w) {
        BigInteger u = trunc(x, w);
        long[] out = new long[Wide.limbs(w)];
        for (int i = 0; i < out.length; i++) {
            out[i] = u.shiftRight(64 * i).longValue();
        }
        return out;
    }

    /**
     * A garbage-filled long[] with operands allocated at random offsets separated by random guard
     * gaps. {@link #seal()} snapshots the array after the inputs have been placed;
     * {@link #check} verifies a destination region and that every other limb is unchanged.
     */
    static final class Mem {
        final long[] m;
        private final SplittableRandom r;
        private long[] snapshot;
        private int next;

        Mem(SplittableRandom r, int capacityLimbs) {
            this.r = r;
            this.m = new long[capacityLimbs];
            for (int i = 0; i < m.length; i++) {
                m[i] = r.nextLong();
            }
            this.next = r.nextInt(3);
        }

        /** Reserves limbs(w) limbs (contents stay garbage) and returns the offset. */
        int alloc(int w) {
            return allocLimbs(Wide.limbs(w));
        }

        int allocLimbs(int n) {
            int off = next;
            next += n + r.nextInt(3);
            if (next > m.length) {
                throw new IllegalStateException("Mem too small");
            }
            return off;
        }

        /** Allocates and stores the canonical w-bit pattern of v. */
        int put(BigInteger v, int w) {
            int off = alloc(w);
            store(off, v, w);
            return off;
        }

        void store(int off, BigInteger v, int w) {
            long[] l = limbsOf(v, w);
            System.arraycopy(l, 0, m, off, l.length);
        }

        /** Allocates a zeroed region. */
        int zeroed(int w) {
            int off = alloc(w);
            java.util.Arrays.fill(m, off, off + Wide.limbs(w), 0L);
            return off;
        }

        void seal() {
            snapshot = m.clone();
        }

        BigInteger get(int off, int w) {
            BigInteger v = BigInteger.ZERO;
            for (int i = Wide.limbs(w) - 1; i >= 0; i--) {
                v = v.shiftLeft(64).or(BigInteger.valueOf(m[off + i]).and(maskBig(64)));
            }
            return v;
        }

        /** Checks d region == expected (mod 2^dw, canonical) and all other limbs untouched. */
        void check(int doff, int dw, BigInteger expected, Supplier<String> ctx) {
            checkExcept(doff, dw, expected, -1, 0, ctx);
        }

        /** Like {@link #check} but additionally allows the given free region (scratch) to change. */
        void checkExcept(int doff, int dw, BigInteger expected, int freeOff, int freeLen,
                         Supplier<String> ctx) {
            long[] exp = limbsOf(expected, dw);
            for (int i = 0; i < exp.length; i++) {
                if (m[doff + i] != exp[i]) {
                    fail("%s%n  expected %s%n  actual   %s (limb %d: expected %016x actual %016x)",
                        ctx.get(), hex(trunc(expected, dw)), hex(get(doff, Math.max(dw, 64 * exp.length))),
                        i, exp[i], m[doff + i]);
                }
            }
            for (int i = 0; i < m.length; i++) {
                boolean inDest = i >= doff && i < doff + exp.length;
                boolean inFree = i >= freeOff && i < freeOff + freeLen;
                if (!inDest && !inFree && m[i] != snapshot[i]) {
                    fail("%s%n  wrote outside its destination: index %d (dest %d..%d)",
                        ctx.get(), i, doff, doff + exp.length - 1);
                }
            }
        }

        /** Checks that nothing at all changed. */
        void checkUntouched(Supplier<String> ctx) {
            for (int i = 0; i < m.length; i++) {
                if (m[i] != snapshot[i]) {
                    fail("%s%n  modified index %d", ctx.get(), i);
                }
            }
        }
    }

    /** Enough room for a handful of operands of up to {@code maxW} bits plus gaps. */
    static int capFor(int maxW, int operands) {
        return operands * (Wide.limbs(maxW) + 3) + 8;
    }
}
