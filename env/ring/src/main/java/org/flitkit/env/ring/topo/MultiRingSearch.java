package org.flitkit.env.ring.topo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The best duplex multi-ring of n pairs +-s for N nodes: every set of n steps in 1..N/2 (the pairs reach every route)
 * ranked by the effective capacity of its shortest schedule ("Multi-rings and distributed full switches", section
 * "Non-switched multi-rings": the best multi-ring for a given number of rings).
 */
public final class MultiRingSearch {
    /** Step sets a search may score; a larger space is refused with a message. */
    public static final long MAX_CANDIDATES = 3_000_000L;

    public record Candidate(MultiRing rings, double shortestCapacity) {
    }

    private MultiRingSearch() {
    }

    /** The {@code top} best candidates, best first (ties: smaller steps first). */
    public static List<Candidate> best(int nodes, int pairs, int top) {
        if (nodes < 4) {
            throw new IllegalArgumentException("--nodes must be at least 4 for a search, got " + nodes);
        }
        int half = nodes / 2;
        if (pairs < 1 || pairs > half) {
            throw new IllegalArgumentException("--pairs must be in 1.." + half + " for " + nodes + " nodes, got " + pairs);
        }
        double space = binomial(half, pairs);
        if (space > MAX_CANDIDATES) {
            throw new IllegalArgumentException(String.format("%.0f step sets of %d pairs over %d nodes: more than the %d this search scores",
                    space, pairs, nodes, MAX_CANDIDATES));
        }
        List<Candidate> out = new ArrayList<>();
        int[] pick = new int[pairs];
        for (int i = 0; i < pairs; i++) {
            pick[i] = i + 1;
        }
        while (true) {
            MultiRing m = tryRings(nodes, pick);
            if (m != null) {
                out.add(new Candidate(m, RingSchedule.shortest(m).capacity().effective()));
            }
            int i = pairs - 1;
            while (i >= 0 && pick[i] == half - (pairs - 1 - i)) {
                i--;
            }
            if (i < 0) {
                break;
            }
            pick[i]++;
            for (int k = i + 1; k < pairs; k++) {
                pick[k] = pick[k - 1] + 1;
            }
        }
        out.sort(Comparator.comparingDouble((Candidate c) -> -c.shortestCapacity()));
        return out.subList(0, Math.min(top, out.size()));
    }

    private static MultiRing tryRings(int nodes, int[] pairs) {
        StringBuilder sb = new StringBuilder();
        for (int s : pairs) {
            sb.append(sb.length() > 0 ? "," : "").append(s);
        }
        try {
            return MultiRing.parse(nodes, sb.toString());
        } catch (IllegalArgumentException e) {
            return null; // some route is on no ring
        }
    }

    private static double binomial(int n, int k) {
        double r = 1;
        for (int i = 0; i < k; i++) {
            r = r * (n - i) / (i + 1);
        }
        return r;
    }
}
