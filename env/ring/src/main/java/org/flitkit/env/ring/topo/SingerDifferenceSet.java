package org.flitkit.env.ring.topo;

/**
 * Singer's planar difference set for a prime q: with alpha a primitive element of GF(q^3) = GF(q)[x]/(f), the
 * exponents i mod q^2+q+1 for which alpha^i lies in the plane spanned by 1 and x are a cyclic (q^2+q+1, q+1, 1)
 * difference set: the projective plane PG(2, q) ("Multi-rings and distributed full switches", projective planes via
 * difference sets).
 */
final class SingerDifferenceSet {
    private SingerDifferenceSet() {
    }

    /** The set for prime q, or null when q is not prime (prime powers are left to the search). */
    static int[] of(int q) {
        if (q < 2 || !isPrime(q)) {
            return null;
        }
        int n = q * q + q + 1;
        long order = (long) q * q * q - 1;
        for (int c0 = 1; c0 < q; c0++) {
            for (int c1 = 0; c1 < q; c1++) {
                for (int c2 = 0; c2 < q; c2++) {
                    // x^3 = -(c2 x^2 + c1 x + c0); x is primitive when its powers reach every nonzero element before 1 again
                    int[] v = {1, 0, 0};
                    boolean[] inPlane = new boolean[n];
                    long i = 0;
                    boolean primitive = true;
                    do {
                        if (v[2] == 0) {
                            inPlane[(int) (i % n)] = true;
                        }
                        v = timesX(v, c0, c1, c2, q);
                        i++;
                        if (v[0] == 1 && v[1] == 0 && v[2] == 0 && i < order) {
                            primitive = false;
                            break;
                        }
                    } while (i < order);
                    if (primitive) {
                        int[] d = new int[q + 1];
                        int k = 0;
                        for (int e = 0; e < n; e++) {
                            if (inPlane[e]) {
                                d[k++] = e;
                            }
                        }
                        return k == q + 1 ? d : null;
                    }
                }
            }
        }
        return null;
    }

    private static int[] timesX(int[] v, int c0, int c1, int c2, int q) {
        int top = v[2];
        return new int[] {Math.floorMod(-top * c0, q), Math.floorMod(v[0] - top * c1, q), Math.floorMod(v[1] - top * c2, q)};
    }

    private static boolean isPrime(int p) {
        for (int d = 2; d * d <= p; d++) {
            if (p % d == 0) {
                return false;
            }
        }
        return true;
    }
}
