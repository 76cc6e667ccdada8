package org.flitkit.env.ring.topo;

import java.util.Locale;

/**
 * Which ring carries each route: share[r][j] is the fraction of route r's packets sent on ring j (the shares of a route
 * sum to 1). The shortest schedule and the balanced heuristic of "Multi-rings and distributed full switches", section
 * "Non-switched multi-rings"; {@link #capacity()} gives the ring loads and the effective capacity.
 */
public final class RingSchedule {
    /** The balanced heuristic stops when the most and least loaded rings differ by less than this fraction of the most. */
    static final double BALANCED_SPREAD = 1e-9;
    static final int BALANCED_MAX_MOVES = 200_000;

    private final MultiRing rings;
    private final String name;
    private final double[][] share;

    private RingSchedule(MultiRing rings, String name, double[][] share) {
        this.rings = rings;
        this.name = name;
        this.share = share;
    }

    /** Route r goes to the ring(s) where it is shortest, equal shares among ties. */
    public static RingSchedule shortest(MultiRing m) {
        int n = m.nodes();
        double[][] share = new double[n][m.rings()];
        for (int r = 1; r < n; r++) {
            int best = Integer.MAX_VALUE;
            int ties = 0;
            for (int j = 0; j < m.rings(); j++) {
                int h = m.hops(r, j);
                if (h > 0 && h < best) {
                    best = h;
                    ties = 1;
                } else if (h == best) {
                    ties++;
                }
            }
            for (int j = 0; j < m.rings(); j++) {
                if (m.hops(r, j) == best) {
                    share[r][j] = 1.0 / ties;
                }
            }
        }
        return new RingSchedule(m, "shortest", share);
    }

    /**
     * Starts from the shortest schedule and repeatedly moves part of one route from the most loaded ring to the least
     * loaded one: the route whose length grows least in the move (lowest hops ratio), as much of it as makes the two
     * loads equal. Each move lowers or keeps the larger of the two loads, so L_max never rises.
     */
    public static RingSchedule balanced(MultiRing m) {
        RingSchedule s = shortest(m);
        double[][] share = s.share;
        int n = m.nodes();
        int k = m.rings();
        double[] load = s.loads();
        for (int move = 0; move < BALANCED_MAX_MOVES; move++) {
            int hi = 0;
            int lo = 0;
            for (int j = 1; j < k; j++) {
                if (load[j] > load[hi]) {
                    hi = j;
                }
                if (load[j] < load[lo]) {
                    lo = j;
                }
            }
            if (load[hi] - load[lo] <= BALANCED_SPREAD * load[hi]) {
                break;
            }
            int best = -1;
            double bestRatio = Double.MAX_VALUE;
            for (int r = 1; r < n; r++) {
                if (share[r][hi] > 0 && m.hops(r, lo) > 0) {
                    double ratio = (double) m.hops(r, lo) / m.hops(r, hi);
                    if (ratio < bestRatio) {
                        bestRatio = ratio;
                        best = r;
                    }
                }
            }
            if (best < 0) {
                break; // nothing on the most loaded ring can go to the least loaded one
            }
            int hHi = m.hops(best, hi);
            int hLo = m.hops(best, lo);
            double delta = Math.min(share[best][hi], (load[hi] - load[lo]) / (hHi + hLo));
            share[best][hi] -= delta;
            share[best][lo] += delta;
            load[hi] -= delta * hHi;
            load[lo] += delta * hLo;
        }
        return new RingSchedule(m, "balanced", share);
    }

    /** By name: {@code shortest} or {@code balanced}. */
    public static RingSchedule named(String name, MultiRing m) {
        return switch (name) {
            case "shortest" -> shortest(m);
            case "balanced" -> balanced(m);
            default -> throw new IllegalArgumentException("unknown schedule '" + name + "'; use shortest or balanced");
        };
    }

    public String name() {
        return name;
    }

    public MultiRing rings() {
        return rings;
    }

    /** The share of route r (1..N-1) on ring j. */
    public double share(int route, int ring) {
        return share[route][ring];
    }

    /** L_j: the sum over routes of hops times share on ring j. */
    public double[] loads() {
        double[] load = new double[rings.rings()];
        for (int r = 1; r < rings.nodes(); r++) {
            for (int j = 0; j < load.length; j++) {
                load[j] += share[r][j] * rings.hops(r, j);
            }
        }
        return load;
    }

    /** Routes carried by ring j (the sum of its shares). */
    public double routes(int ring) {
        double w = 0;
        for (int r = 1; r < rings.nodes(); r++) {
            w += share[r][ring];
        }
        return w;
    }

    public Capacity capacity() {
        return Capacity.of(this);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s schedule of %s", name, rings);
    }
}
