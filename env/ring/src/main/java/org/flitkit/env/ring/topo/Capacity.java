package org.flitkit.env.ring.topo;

/**
 * The analytic figures of a schedule ("Multi-rings and distributed full switches", section "Non-switched multi-rings"):
 * ring loads L_j, each ring's capacity c_j = N / (L_j / W_j) with W_j the routes it carries, their naive sum, and the
 * effective capacity C = N (N - 1) / L_max, in packets delivered per slot time with uniform destinations.
 */
public record Capacity(RingSchedule schedule, double[] loads, double[] routes, double maxLoad, double effective, double naiveSum) {

    static Capacity of(RingSchedule s) {
        MultiRing m = s.rings();
        int n = m.nodes();
        double[] loads = s.loads();
        double[] routes = new double[m.rings()];
        double max = 0;
        double naive = 0;
        for (int j = 0; j < loads.length; j++) {
            routes[j] = s.routes(j);
            max = Math.max(max, loads[j]);
            if (loads[j] > 0) {
                naive += ringCapacity(n, loads[j], routes[j]);
            }
        }
        return new Capacity(s, loads, routes, max, (double) n * (n - 1) / max, naive);
    }

    /** c = N / L with L the mean hops of the routes the ring carries (L_j / W_j). */
    static double ringCapacity(int nodes, double load, double routes) {
        return nodes * routes / load;
    }

    /** Ring j's capacity with the routes it carries. */
    public double ringCapacity(int ring) {
        return loads[ring] > 0 ? ringCapacity(schedule.rings().nodes(), loads[ring], routes[ring]) : 0;
    }

    /**
     * Packets per slot time ring j carries when the whole multi-ring runs at its effective capacity: its share of
     * the N - 1 routes of a source times C / (N - 1).
     */
    public double ringThroughputAtCapacity(int ring) {
        int n = schedule.rings().nodes();
        return effective * routes[ring] / (n - 1);
    }
}
