package org.flitkit.env.ring.topo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text tables of {@code ./hdl multiring capacity}: one multi-ring's rings with their loads and capacities, or one
 * row per multi-ring with C for the shortest and the balanced schedule (docs/multiring.md, "Commands").
 */
public final class CapacityReport {
    private CapacityReport() {
    }

    /** Per ring: step, routes carried W_j, load L_j, c_j; then L_max, C and the naive sum. */
    public static List<String> rings(Capacity c) {
        MultiRing m = c.schedule().rings();
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "N=%d %s, %d rings, %s schedule", m.nodes(), m.label(), m.rings(), c.schedule().name()));
        out.add(String.format(Locale.ROOT, "%-6s %10s %10s %10s", "ring", "routes", "load L_j", "c_j"));
        for (int j = 0; j < m.rings(); j++) {
            out.add(String.format(Locale.ROOT, "%-6s %10.4f %10.4f %10.4f", m.ringName(j), c.routes()[j], c.loads()[j], c.ringCapacity(j)));
        }
        out.add(String.format(Locale.ROOT, "L_max=%.4f  C=N(N-1)/L_max=%.4f  naive sum of c_j=%.4f  C/naive=%.4f",
                c.maxLoad(), c.effective(), c.naiveSum(), c.effective() / c.naiveSum()));
        return out;
    }

    public static String familyHeader() {
        return String.format(Locale.ROOT, "%5s %-28s %5s %12s %12s %12s %10s", "N", "rings", "n", "C shortest", "C balanced",
                "naive (sh.)", "bal/short");
    }

    public static String familyRow(MultiRing m) {
        Capacity s = RingSchedule.shortest(m).capacity();
        Capacity b = RingSchedule.balanced(m).capacity();
        return String.format(Locale.ROOT, "%5d %-28s %5d %12.4f %12.4f %12.4f %10.4f", m.nodes(), m.label(), m.rings(), s.effective(),
                b.effective(), s.naiveSum(), b.effective() / s.effective());
    }
}
