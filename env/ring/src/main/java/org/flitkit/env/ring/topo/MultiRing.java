package org.flitkit.env.ring.topo;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A set of rings over the same nodes 0..N-1, each given by its step s (node x sends to (x + s) mod N); a step above N/2
 * is the counter-rotating ring of step -(N - s). "Multi-rings and distributed full switches", section "Non-switched
 * multi-rings"; the definitions used are in docs/multiring.md.
 */
public final class MultiRing {
    private final int nodes;
    private final int[] steps;
    /** hops[r][j]: hops of route r (distance along ring +1) on ring j, 0 when ring j does not reach it. */
    private final int[][] hops;

    private MultiRing(int nodes, int[] steps) {
        this.nodes = nodes;
        this.steps = steps;
        hops = new int[nodes][steps.length];
        for (int j = 0; j < steps.length; j++) {
            int x = 0;
            for (int k = 1; k < nodes; k++) {
                x = (x + steps[j]) % nodes;
                if (x == 0) {
                    break; // back at the start: a mini-ring when gcd(s, N) > 1
                }
                hops[x][j] = k;
            }
        }
    }

    /** The rings of {@code steps} (each in 1..N-1, distinct) over {@code nodes} nodes, at least one. */
    public static MultiRing of(int nodes, int... steps) {
        if (nodes < 2) {
            throw new IllegalArgumentException("a ring needs at least 2 nodes, got " + nodes);
        }
        if (steps.length == 0) {
            throw new IllegalArgumentException("no rings: give at least one step");
        }
        Set<Integer> seen = new LinkedHashSet<>();
        for (int s : steps) {
            if (s < 1 || s >= nodes) {
                throw new IllegalArgumentException("step " + s + " is outside 1.." + (nodes - 1) + " for " + nodes + " nodes");
            }
            if (!seen.add(s)) {
                throw new IllegalArgumentException("step " + show(s, nodes) + " given twice: the rings of a multi-ring are distinct");
            }
        }
        MultiRing m = new MultiRing(nodes, steps.clone());
        for (int r = 1; r < nodes; r++) {
            if (m.reach(r) == 0) {
                throw new IllegalArgumentException("no ring reaches route " + r + " (node 0 to node " + r + "): every step shares a factor with "
                        + nodes);
            }
        }
        return m;
    }

    /**
     * Parses a step list: {@code 1,3} or {@code +-1,+-3} are duplex pairs (steps s and N - s), {@code +2} the simplex
     * ring of step 2, {@code -2} its counter-rotating ring (step N - 2).
     */
    public static MultiRing parse(int nodes, String list) {
        if (nodes < 3) {
            throw new IllegalArgumentException("--nodes must be at least 3, got " + nodes);
        }
        List<Integer> out = new ArrayList<>();
        String body = list.strip();
        if (body.startsWith("{") && body.endsWith("}")) {
            body = body.substring(1, body.length() - 1);
        }
        for (String raw : body.split(",")) {
            String t = raw.strip().replace("±", "+-");
            if (t.isEmpty()) {
                throw new IllegalArgumentException("empty step in '" + list + "'");
            }
            boolean duplex = !t.startsWith("+") && !t.startsWith("-") || t.startsWith("+-");
            String digits = t.startsWith("+-") ? t.substring(2) : t.startsWith("+") || t.startsWith("-") ? t.substring(1) : t;
            int s;
            try {
                s = Integer.parseInt(digits);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("step '" + raw.strip() + "' is not a number (use 3, +-3, +3 or -3)");
            }
            if (s < 1 || s >= nodes) {
                throw new IllegalArgumentException("step '" + raw.strip() + "' is outside 1.." + (nodes - 1) + " for " + nodes + " nodes");
            }
            if (duplex) {
                out.add(s);
                if (2 * s != nodes) { // the pair of step N/2 is one ring twice
                    out.add(nodes - s);
                }
            } else {
                out.add(t.startsWith("-") ? nodes - s : s);
            }
        }
        return of(nodes, out.stream().mapToInt(Integer::intValue).toArray());
    }

    public int nodes() {
        return nodes;
    }

    public int rings() {
        return steps.length;
    }

    public int step(int ring) {
        return steps[ring];
    }

    /** Hops of route {@code r} (1..N-1, the destination's distance along ring +1) on {@code ring}; 0 if it does not reach it. */
    public int hops(int route, int ring) {
        return hops[route][ring];
    }

    /** The next node after {@code node} on {@code ring}. */
    public int next(int ring, int node) {
        return (node + steps[ring]) % nodes;
    }

    /** Rings that reach route r. */
    int reach(int route) {
        int n = 0;
        for (int j = 0; j < steps.length; j++) {
            n += hops[route][j] > 0 ? 1 : 0;
        }
        return n;
    }

    /** One ring's name: +s for s <= N/2, -(N-s) above. */
    public String ringName(int ring) {
        return show(steps[ring], nodes);
    }

    static String show(int s, int n) {
        return 2 * s <= n ? "+" + s : "-" + (n - s);
    }

    /** {@code {+-1,+-3}} when the steps are duplex pairs, else each ring by its signed step. */
    public String label() {
        List<String> parts = new ArrayList<>();
        Set<Integer> done = new LinkedHashSet<>();
        for (int s : steps) {
            if (done.contains(s)) {
                continue;
            }
            int pair = nodes - s;
            boolean hasPair = pair != s && contains(pair);
            if (hasPair) {
                parts.add("+-" + Math.min(s, pair));
                done.add(pair);
            } else {
                parts.add(show(s, nodes));
            }
            done.add(s);
        }
        return "{" + String.join(",", parts) + "}";
    }

    private boolean contains(int s) {
        for (int x : steps) {
            if (x == s) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "N=" + nodes + " " + label();
    }
}
