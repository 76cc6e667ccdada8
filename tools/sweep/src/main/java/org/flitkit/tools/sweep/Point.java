package org.flitkit.tools.sweep;

import java.util.Map;
import java.util.TreeMap;

/**
 * One point of a sweep as data: which sweep, its place in it, the kind of run (a figure's model session, a
 * difftest shard, ...), the run's parameters and its seed. Stored as {@code points/NNNNN.json} (docs/sweeps.md, "Store").
 */
public record Point(String sweep, int index, String kind, Map<String, String> params, long seed) {
    public Point {
        if (sweep == null || !sweep.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException("sweep name '" + sweep + "' must be lower-case letters, digits and '-'");
        }
        if (index < 0) {
            throw new IllegalArgumentException("sweep " + sweep + ": point index " + index + " is negative");
        }
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("sweep " + sweep + ": point " + index + " has no kind");
        }
        // sorted, so that the JSON of equal points is equal text
        params = java.util.Collections.unmodifiableMap(new TreeMap<>(params == null ? Map.of() : params));
    }

    /** The point's file stem: its index on five digits, so that files list in point order. */
    public String id() {
        return String.format(java.util.Locale.ROOT, "%05d", index);
    }

    /** Parameter {@code name}; IllegalArgumentException naming the point if it is missing. */
    public String param(String name) {
        String v = params.get(name);
        if (v == null) {
            throw new IllegalArgumentException("point " + index + " of sweep " + sweep + " (" + kind + ") has no parameter '" + name
                    + "'; it has " + params.keySet());
        }
        return v;
    }

    /** Integer parameter {@code name}, with the point named when it is not an integer. */
    public long longParam(String name) {
        String v = param(name);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("point " + index + " of sweep " + sweep + ": parameter " + name + " is not an integer: '" + v + "'");
        }
    }

    /** The same point with {@code sweep} and {@code index} (a registry defines points before it numbers them). */
    public Point at(String sweepName, int i) {
        return new Point(sweepName, i, kind, params, seed);
    }
}
