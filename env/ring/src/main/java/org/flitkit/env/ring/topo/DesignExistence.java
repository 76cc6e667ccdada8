package org.flitkit.env.ring.topo;

import java.util.Arrays;

/**
 * Whether a symmetric design B(N, m, a) can exist and whether the project constructs it: the Bruck-Ryser-Chowla test
 * (N even: m - a must be a square; N odd: x^2 = (m-a) y^2 + (-1)^((N-1)/2) a z^2 must have a nonzero integer
 * solution, decided by Hilbert symbols), then a search for a cyclic difference set ("Multi-rings and distributed full
 * switches", section "Distributed full switches").
 */
public final class DesignExistence {
    /** Search nodes the cyclic difference-set search may visit before giving up. */
    public static final long SEARCH_BUDGET = 4_000_000L;

    public enum Answer { CONSTRUCTED, DOES_NOT_EXIST, NOT_CONSTRUCTED }

    /** The verdict for one parameter set, with the reason and, when constructed, the difference set. */
    public record Verdict(int points, int blockSize, int lambda, Answer status, String reason, int[] differenceSet) {
        public BlockDesign design() {
            if (differenceSet == null) {
                throw new IllegalStateException("B(" + points + "," + blockSize + "," + lambda + ") is not constructed: " + reason);
            }
            return BlockDesign.fromDifferenceSet(points, lambda, differenceSet);
        }

        @Override
        public String toString() {
            return "B(" + points + "," + blockSize + "," + lambda + ") " + status + ": " + reason
                    + (differenceSet != null ? " D=" + Arrays.toString(differenceSet) : "");
        }
    }

    private DesignExistence() {
    }

    public static Verdict of(int m, int a) {
        int n = BlockDesign.pointsFor(m, a);
        String brc = bruckRyserChowla(n, m, a);
        if (brc != null) {
            return new Verdict(n, m, a, Answer.DOES_NOT_EXIST, brc, null);
        }
        int[] singer = a == 1 ? SingerDifferenceSet.of(m - 1) : null;
        if (singer != null) {
            BlockDesign.fromDifferenceSet(n, a, singer); // validates every pair
            return new Verdict(n, m, a, Answer.CONSTRUCTED, "Singer difference set of PG(2," + (m - 1) + "), every pair checked", singer);
        }
        DifferenceSetSearch.Result r = DifferenceSetSearch.find(n, m, a, SEARCH_BUDGET);
        if (r.set() != null) {
            BlockDesign.fromDifferenceSet(n, a, r.set()); // validates every pair
            return new Verdict(n, m, a, Answer.CONSTRUCTED, "cyclic difference set found and every pair checked", r.set());
        }
        return new Verdict(n, m, a, Answer.NOT_CONSTRUCTED, r.exhausted()
                ? "passes Bruck-Ryser-Chowla; no cyclic difference set exists (search exhausted), a non-cyclic design is not searched"
                : "passes Bruck-Ryser-Chowla; no cyclic difference set within " + SEARCH_BUDGET + " search nodes", null);
    }

    /** Null when B(N, m, a) passes the Bruck-Ryser-Chowla test, else why it fails. */
    static String bruckRyserChowla(int n, int m, int a) {
        long order = m - a;
        if (order == 0) {
            return null; // every block holds every point
        }
        if (n % 2 == 0) {
            long s = Math.round(Math.sqrt(order));
            return s * s == order ? null : "N=" + n + " is even and m-a=" + order + " is not a square (Bruck-Ryser-Chowla)";
        }
        long c = ((n - 1) / 2) % 2 == 0 ? a : -a;
        for (long p : primesOf(2 * Math.abs(order) * Math.abs(c))) {
            if (hilbert(order, c, p) != 1) {
                return "x^2 = " + order + " y^2 " + (c < 0 ? "- " + -c : "+ " + c) + " z^2 has no nonzero integer solution (Hilbert symbol at "
                        + p + " is -1; Bruck-Ryser-Chowla)";
            }
        }
        return order < 0 && c < 0 ? "x^2 = negative form has no real solution (Bruck-Ryser-Chowla)" : null;
    }

    /** The Hilbert symbol (a, b)_p for a prime p and nonzero integers a, b. */
    static int hilbert(long a, long b, long p) {
        int alpha = 0;
        int beta = 0;
        while (a % p == 0) {
            a /= p;
            alpha++;
        }
        while (b % p == 0) {
            b /= p;
            beta++;
        }
        if (p == 2) {
            long e = (eps(a) * eps(b) + alpha * omega(b) + beta * omega(a)) % 2;
            return e == 0 ? 1 : -1;
        }
        int sign = (alpha * beta % 2 == 1 && ((p - 1) / 2) % 2 == 1) ? -1 : 1;
        if (beta % 2 == 1) {
            sign *= legendre(a, p);
        }
        if (alpha % 2 == 1) {
            sign *= legendre(b, p);
        }
        return sign;
    }

    private static long eps(long u) {
        return (Math.floorMod(u, 4) == 1) ? 0 : 1;
    }

    private static long omega(long u) {
        long r = Math.floorMod(u, 8);
        return r == 1 || r == 7 ? 0 : 1;
    }

    private static int legendre(long a, long p) {
        long r = Math.floorMod(a, p);
        long e = (p - 1) / 2;
        long result = 1;
        long base = r;
        while (e > 0) {
            if ((e & 1) == 1) {
                result = result * base % p;
            }
            base = base * base % p;
            e >>= 1;
        }
        return result == 1 ? 1 : -1;
    }

    private static long[] primesOf(long x) {
        return java.util.stream.LongStream.rangeClosed(2, Math.max(2, x)).filter(p -> x % p == 0 && isPrime(p)).toArray();
    }

    private static boolean isPrime(long p) {
        for (long d = 2; d * d <= p; d++) {
            if (p % d == 0) {
                return false;
            }
        }
        return p >= 2;
    }
}
