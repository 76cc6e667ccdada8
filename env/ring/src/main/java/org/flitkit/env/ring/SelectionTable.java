package org.flitkit.env.ring;

import org.flitkit.env.ring.topo.MultiRing;
import org.flitkit.env.ring.topo.RingSchedule;
import org.flitkit.rtl.ring.RingStation;

/**
 * A schedule as the stations' ring-selection table: per route, cumulative shares in units of 2^-16 (the offer's pick),
 * every ring after the last one that carries the route at {@link RingStation#WHOLE} (docs/multiring.md, "RTL"). The
 * rounding moves a share by at most 2^-16.
 */
public final class SelectionTable {
    private SelectionTable() {
    }

    public static long[][] thresholds(RingSchedule s) {
        MultiRing m = s.rings();
        long[][] t = new long[m.nodes()][m.rings()];
        for (int j = 0; j < m.rings(); j++) {
            t[0][j] = RingStation.WHOLE; // route 0 (to itself) is never offered
        }
        for (int r = 1; r < m.nodes(); r++) {
            int last = 0;
            for (int j = 0; j < m.rings(); j++) {
                if (s.share(r, j) > 0) {
                    last = j;
                }
            }
            double cum = 0;
            for (int j = 0; j < m.rings(); j++) {
                cum += s.share(r, j);
                t[r][j] = j >= last ? RingStation.WHOLE : Math.min(RingStation.WHOLE, Math.round(cum * RingStation.WHOLE));
            }
        }
        return t;
    }

    /** The step of each ring, as the RTL takes them. */
    public static int[] steps(MultiRing m) {
        int[] s = new int[m.rings()];
        for (int j = 0; j < s.length; j++) {
            s[j] = m.step(j);
        }
        return s;
    }
}
