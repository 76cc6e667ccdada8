package org.flitkit.figures;

import java.util.ArrayList;
import java.util.List;

/** Named rows of numbers under named columns (a sweep's results), written as CSV with exact numbers. */
public record Table(String name, List<String> columns, List<double[]> rows) {
    public Table {
        if (name == null || !name.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException("table name '" + name + "' must be lower-case letters, digits and '-' (it names a file)");
        }
        columns = List.copyOf(columns);
        for (String c : columns) {
            if (!c.matches("[A-Za-z0-9_]+")) {
                throw new IllegalArgumentException("table " + name + ": column name '" + c + "' must be letters, digits and '_'");
            }
        }
        List<double[]> copy = new ArrayList<>();
        for (double[] r : rows) {
            if (r.length != columns.size()) {
                throw new IllegalArgumentException("table " + name + ": a row has " + r.length + " values for " + columns.size() + " columns");
            }
            copy.add(r.clone());
        }
        rows = List.copyOf(copy);
    }

    /** The values of one column, top to bottom. */
    public double[] column(String column) {
        int c = columns.indexOf(column);
        if (c < 0) {
            throw new IllegalArgumentException("table " + name + " has no column '" + column + "'; columns: " + columns);
        }
        return rows.stream().mapToDouble(r -> r[c]).toArray();
    }

    /** Header line, then one line per row. */
    public String csv() {
        StringBuilder sb = new StringBuilder(String.join(",", columns)).append('\n');
        for (double[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                sb.append(i > 0 ? "," : "").append(Numbers.plain(r[i]));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
