package org.flitkit.figures;

import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/**
 * One axis of a figure's plot: where it starts, its title, and how its ticks read. A linear axis starts at
 * zero unless that would squeeze the data into the upper half; then it starts at a round value below the
 * data and its title says so ("GB/s, axis from 2.5"). A log2 axis says "log scale" and labels its ticks
 * with the sizes (64, 128, ... 4096, 16K, ... 512K).
 */
public record PlotAxis(String title, double start, Curve.Scale scale) {

    /** The axis for values from {@code min} to {@code max} (already placed: log2 of them on a log2 axis). */
    public static PlotAxis of(String title, Curve.Scale scale, double min, double max) {
        if (scale == Curve.Scale.LOG2) {
            return new PlotAxis(annotate(title, "log scale"), Math.floor(min), scale);
        }
        if (min >= 0 && min <= max / 2) {
            return new PlotAxis(title, 0, scale);
        }
        BigDecimal start = roundBelow(min, max);
        if (min >= 0 && start.signum() <= 0) {
            return new PlotAxis(title, 0, scale);
        }
        return new PlotAxis(annotate(title, "axis from " + start.stripTrailingZeros().toPlainString()), start.doubleValue(), scale);
    }

    /** True for a linear axis from zero; any other axis states in its title where it starts or that it is logarithmic. */
    public boolean startsAtZero() {
        return scale == Curve.Scale.LINEAR && start == 0;
    }

    /** Where a value sits on this axis. */
    public double place(double v) {
        return place(scale, v);
    }

    /** Where a value sits on an axis of {@code scale}: itself, or its log2 (a size must then be positive). */
    public static double place(Curve.Scale scale, double v) {
        if (scale == Curve.Scale.LINEAR) {
            return v;
        }
        if (!(v > 0)) {
            throw new IllegalArgumentException("a log2 axis needs positive values, got " + v);
        }
        return Math.log(v) / Math.log(2);
    }

    /** The label of a tick at {@code position} on a log2 axis: the size, and nothing between whole powers of two. */
    public String log2Label(double position) {
        long p = Math.round(position);
        if (Math.abs(position - p) > 1e-9 || p < 0 || p > 62) {
            return "";
        }
        long v = 1L << p;
        if (v < 10_000) {
            return Long.toString(v);
        }
        return v < 1L << 20 ? (v >> 10) + "K" : v < 1L << 30 ? (v >> 20) + "M" : (v >> 30) + "G";
    }

    /** Whole numbers with thousands separators, for axes that reach 100,000 (instead of 2.6E5). */
    static DecimalFormat largeNumbers() {
        return new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT));
    }

    /** "(us at 100 MHz)" + note = "(us at 100 MHz, note)"; a title without a closing parenthesis gets " (note)". */
    static String annotate(String title, String note) {
        return title.endsWith(")") ? title.substring(0, title.length() - 1) + ", " + note + ")" : title + " (" + note + ")";
    }

    /** A multiple of a 1-2-5 step (about a tenth of the data's span, as fine as the tick marks) strictly below {@code min}. */
    private static BigDecimal roundBelow(double min, double max) {
        double span = max - min > 0 ? max - min : Math.max(Math.abs(max), 1);
        double raw = span / 10;
        BigDecimal mag = BigDecimal.ONE.scaleByPowerOfTen((int) Math.floor(Math.log10(raw)));
        BigDecimal step = mag;
        for (int f : new int[] {1, 2, 5, 10}) {
            step = mag.multiply(BigDecimal.valueOf(f));
            if (step.doubleValue() >= raw) {
                break;
            }
        }
        BigDecimal k = BigDecimal.valueOf(Math.floor(min / step.doubleValue()));
        BigDecimal start = k.multiply(step);
        if (start.doubleValue() >= min) {
            start = start.subtract(step);
        }
        return start;
    }
}
