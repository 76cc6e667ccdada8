package org.flitkit.figures;

import java.util.Arrays;

/**
 * One line of a curve figure: the model's measured points, or the paper's (its points, or a line it
 * states). x and y are in the units of the curve's axes.
 */
public record Series(String name, Kind kind, double[] x, double[] y) {

    /** How a series is drawn: the model as a line with markers, the paper's points as markers, the paper's line dashed. */
    public enum Kind {
        MODEL, PAPER_POINTS, PAPER_LINE;

        public boolean paper() {
            return this != MODEL;
        }
    }

    public Series {
        Citation.requireText(name, "series name");
        if (name.contains(",") || name.contains("\n") || name.contains("\"")) {
            throw new IllegalArgumentException("a series name cannot contain ',', '\"' or a line break (it goes into CSV): '" + name + "'");
        }
        if (x.length != y.length || x.length == 0) {
            throw new IllegalArgumentException("series '" + name + "' needs as many x as y values, at least one: " + x.length + " x, "
                    + y.length + " y");
        }
        for (int i = 0; i < x.length; i++) {
            if (!Double.isFinite(x[i]) || !Double.isFinite(y[i])) {
                throw new IllegalArgumentException("series '" + name + "' point " + i + " is not finite: (" + x[i] + ", " + y[i] + ")");
            }
        }
        x = x.clone();
        y = y.clone();
    }

    public static Series model(String name, double[] x, double[] y) {
        return new Series(name, Kind.MODEL, x, y);
    }

    /** The model's values at x = 1, 2, ... (one per element of {@code y}). */
    public static Series model(String name, double[] y) {
        return model(name, countFrom(1, y.length), y);
    }

    public static Series paperPoints(String name, double[] x, double[] y) {
        return new Series(name, Kind.PAPER_POINTS, x, y);
    }

    public static Series paperLine(String name, double[] x, double[] y) {
        return new Series(name, Kind.PAPER_LINE, x, y);
    }

    @Override
    public double[] x() {
        return x.clone();
    }

    @Override
    public double[] y() {
        return y.clone();
    }

    public int size() {
        return x.length;
    }

    /** from, from + 1, ... ({@code n} values). */
    /** {@code n} times {@code v} (a paper's single value drawn as a line). */
    public static double[] constant(int n, double v) {
        double[] a = new double[n];
        java.util.Arrays.fill(a, v);
        return a;
    }

    public static double[] countFrom(int from, int n) {
        double[] v = new double[n];
        Arrays.setAll(v, i -> from + i);
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Series s && s.name.equals(name) && s.kind == kind && Arrays.equals(s.x, x) && Arrays.equals(s.y, y);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(y);
    }

    @Override
    public String toString() {
        return name + " " + kind + " x=" + Arrays.toString(x) + " y=" + Arrays.toString(y);
    }

    /** Least-squares slope of {@code y} against {@code x}. */
    public static double slope(double[] x, double[] y) {
        double mx = java.util.Arrays.stream(x).average().orElseThrow();
        double my = java.util.Arrays.stream(y).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }
        return sxy / sxx;
    }

    /** Least-squares intercept of {@code y} against {@code x}: the fit at x = 0. */
    public static double intercept(double[] x, double[] y) {
        return java.util.Arrays.stream(y).average().orElseThrow() - slope(x, y) * java.util.Arrays.stream(x).average().orElseThrow();
    }
}
