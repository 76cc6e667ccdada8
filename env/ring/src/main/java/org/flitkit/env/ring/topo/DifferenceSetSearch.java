package org.flitkit.env.ring.topo;

/**
 * Backtracking search for a cyclic (N, m, a) difference set: m residues mod N whose differences cover every nonzero
 * residue exactly a times. Translating puts 0 in the set; for a = 1 the difference 1 occurs once, so 1 is in it too.
 * Its development is a symmetric design B(N, m, a) ("Multi-rings and distributed full switches", projective planes
 * via difference sets).
 */
final class DifferenceSetSearch {
    /** The set found (sorted) or null; {@code exhausted}: the whole space was searched (no cyclic set exists). */
    record Result(int[] set, boolean exhausted) {
    }

    private final int n;
    private final int m;
    private final int a;
    private final int[] chosen;
    private final int[] count;
    private long budget;

    private DifferenceSetSearch(int n, int m, int a, long budget) {
        this.n = n;
        this.m = m;
        this.a = a;
        this.chosen = new int[m];
        this.count = new int[n];
        this.budget = budget;
    }

    static Result find(int n, int m, int a, long budget) {
        DifferenceSetSearch s = new DifferenceSetSearch(n, m, a, budget);
        s.chosen[0] = 0;
        boolean found;
        if (a == 1 && m >= 2 && n > 2) {
            s.add(1, 1);
            found = s.extend(2);
        } else {
            found = s.extend(1);
        }
        if (found) {
            return new Result(s.chosen.clone(), true);
        }
        return new Result(null, s.budget > 0);
    }

    private boolean extend(int k) {
        if (k == m) {
            for (int d = 1; d < n; d++) {
                if (count[d] != a) {
                    return false;
                }
            }
            return true;
        }
        int from = chosen[k - 1] + 1;
        for (int x = from; x <= n - (m - k); x++) {
            if (--budget <= 0) {
                return false;
            }
            if (add(x, k)) {
                if (extend(k + 1)) {
                    return true;
                }
            }
            remove(x, k);
            if (budget <= 0) {
                return false;
            }
        }
        return false;
    }

    /** Puts x at position k and counts its differences with the earlier ones; false when some count passes a. */
    private boolean add(int x, int k) {
        chosen[k] = x;
        boolean ok = true;
        for (int i = 0; i < k; i++) {
            int d = Math.floorMod(x - chosen[i], n);
            if (++count[d] > a) {
                ok = false;
            }
            if (++count[n - d] > a) {
                ok = false;
            }
        }
        return ok;
    }

    private void remove(int x, int k) {
        for (int i = 0; i < k; i++) {
            int d = Math.floorMod(x - chosen[i], n);
            count[d]--;
            count[n - d]--;
        }
    }
}
