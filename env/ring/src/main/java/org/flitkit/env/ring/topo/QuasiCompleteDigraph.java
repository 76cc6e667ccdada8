package org.flitkit.env.ring.topo;

/**
 * The quasi-complete digraph (full 2D switched multi-ring) on N = m^2 nodes: node i's m x m switch takes links from
 * subscribers (i - j) mod N + 1 and sends to subscribers (i + (j - 1) m) mod N + 1, j = 1..m, so any two subscribers
 * are joined by exactly one path of length 2 ("Multi-rings and distributed full switches", section "Distributed full
 * switches"). Numbering here is from 0: switch i, port j in 0..m-1.
 */
public final class QuasiCompleteDigraph implements SwitchGraph {
    private final int m;
    private final int n;

    public QuasiCompleteDigraph(int m) {
        if (m < 2) {
            throw new IllegalArgumentException("a quasi-complete digraph needs m >= 2 ports, got " + m);
        }
        this.m = m;
        this.n = m * m;
        validate();
    }

    @Override
    public String describe() {
        return "the quasi-complete digraph";
    }

    @Override
    public int ports() {
        return m;
    }

    @Override
    public int nodes() {
        return n;
    }

    /** The subscriber switch i's input port j comes from: the spec's (i - j) mod N + 1, in 1-based terms. */
    @Override
    public int from(int sw, int port) {
        return Math.floorMod((sw + 1) - (port + 1), n);
    }

    /** The subscriber switch i's output port j goes to: the spec's (i + (j - 1) m) mod N + 1. */
    @Override
    public int to(int sw, int port) {
        return Math.floorMod((sw + 1) + port * m, n);
    }

    /** The input port of switch sw fed by subscriber src, or -1. */
    public int inPort(int sw, int src) {
        for (int j = 0; j < m; j++) {
            if (from(sw, j) == src) {
                return j;
            }
        }
        return -1;
    }

    /** The output port of switch sw that reaches subscriber dst, or -1. */
    public int outPort(int sw, int dst) {
        for (int j = 0; j < m; j++) {
            if (to(sw, j) == dst) {
                return j;
            }
        }
        return -1;
    }

    /** The one switch on the path of length 2 from src to dst. */
    @Override
    public int via(int src, int dst) {
        for (int sw = 0; sw < n; sw++) {
            if (inPort(sw, src) >= 0 && outPort(sw, dst) >= 0) {
                return sw;
            }
        }
        throw new IllegalStateException("no path from " + src + " to " + dst);
    }

    /** Every ordered pair (also a subscriber to itself) has exactly one switch that it enters and leaves. */
    private void validate() {
        int[][] paths = new int[n][n];
        for (int sw = 0; sw < n; sw++) {
            for (int j = 0; j < m; j++) {
                for (int k = 0; k < m; k++) {
                    paths[from(sw, j)][to(sw, k)]++;
                }
            }
        }
        for (int u = 0; u < n; u++) {
            for (int v = 0; v < n; v++) {
                if (paths[u][v] != 1) {
                    throw new IllegalStateException("subscribers " + u + " and " + v + " are joined by " + paths[u][v] + " paths of length 2, not 1");
                }
            }
        }
    }
}
