package org.flitkit.tools.sweep;

import java.util.Arrays;
import java.util.List;

/**
 * What one point gave: named numbers, with the seed and the FlitKit version that produced them, and notes (text a
 * number cannot hold, e.g. a difftest mismatch and its shrunk design). Stored as {@code rows/NNNNN.json}; the doubles
 * are written as the shortest decimal that reads back to the same bits (docs/sweeps.md, "Store").
 */
public record Row(int index, String kind, long seed, String version, List<String> columns, double[] values, List<String> notes) {
    public Row {
        columns = List.copyOf(columns);
        values = values.clone();
        notes = notes == null ? List.of() : List.copyOf(notes);
        if (columns.size() != values.length) {
            throw new IllegalArgumentException("row " + index + ": " + values.length + " values for " + columns.size() + " columns " + columns);
        }
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException("row " + index + ": column " + columns.get(i) + " is " + values[i] + " (rows hold finite numbers)");
            }
        }
    }

    @Override
    public double[] values() {
        return values.clone();
    }

    /** Value of {@code column}. */
    public double value(String column) {
        int i = columns.indexOf(column);
        if (i < 0) {
            throw new IllegalArgumentException("row " + index + " has no column '" + column + "'; columns: " + columns);
        }
        return values[i];
    }

    /** Equal bit for bit: same point, kind, seed, version, columns, notes, and every value with the same bits. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Row r)) {
            return false;
        }
        if (values.length != r.values.length) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            if (Double.doubleToRawLongBits(values[i]) != Double.doubleToRawLongBits(r.values[i])) {
                return false;
            }
        }
        return index == r.index && seed == r.seed && kind.equals(r.kind) && version.equals(r.version) && columns.equals(r.columns)
                && notes.equals(r.notes);
    }

    @Override
    public int hashCode() {
        return 31 * Integer.hashCode(index) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "Row[" + index + " " + kind + " seed " + seed + " " + columns + "=" + Arrays.toString(values) + "]";
    }

    /** A value as CSV text: integers without a decimal point, others as the shortest text that reads back to the same double. */
    public static String text(double v) {
        // -0.0 keeps its sign: the text must give back the same bits
        if (v == Math.rint(v) && Math.abs(v) < 1e15 && Double.doubleToRawLongBits(v) != Double.doubleToRawLongBits(-0.0)) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }
}
