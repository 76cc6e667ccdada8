package org.flitkit.figures;

import java.util.ArrayList;
import java.util.List;

/**
 * The plot of a curve figure: axis titles with their units, the x axis' scale, the paper's series (points
 * it reports), slopes the paper states without points ("each extra address adds ~150 us"), drawn as a line
 * from the model's first point so the two slopes can be compared by eye, and values the paper gives on the
 * x axis ("fair after 1.5 M cycles"), drawn as vertical lines. A curve with none of these shows the
 * figure's own paper value as a horizontal line (see {@link #plotted}).
 */
public record Curve(String xAxis, String yAxis, Scale xScale, List<Series> paper, List<Slope> slopes, List<XMark> marks) {

    /** How x values are placed: linearly, or at their log2 (sizes in bytes: 64, 128, ... 4096, 16K, ... 512K; K = 1024). */
    public enum Scale {
        LINEAR, LOG2
    }

    /** A slope the paper states, per unit of x, in the units of the y axis. */
    public record Slope(String name, double perX) {
        public Slope {
            Citation.requireText(name, "slope name");
            if (!Double.isFinite(perX)) {
                throw new IllegalArgumentException("slope '" + name + "' must be finite, got " + perX);
            }
        }
    }

    /** A value the paper gives on the x axis, in its units. */
    public record XMark(String name, double x) {
        public XMark {
            Citation.requireText(name, "x mark name");
            if (!Double.isFinite(x)) {
                throw new IllegalArgumentException("x mark '" + name + "' must be finite, got " + x);
            }
        }
    }

    public Curve {
        Citation.requireText(xAxis, "x axis title");
        Citation.requireText(yAxis, "y axis title");
        java.util.Objects.requireNonNull(xScale, "x scale");
        paper = List.copyOf(paper);
        slopes = List.copyOf(slopes);
        marks = List.copyOf(marks);
        for (Series s : paper) {
            if (!s.kind().paper()) {
                throw new IllegalArgumentException("series '" + s.name() + "' is the model's: a curve definition holds the paper's series only");
            }
        }
    }

    /** A linear curve with no paper series yet. */
    public static Curve of(String xAxis, String yAxis) {
        return new Curve(xAxis, yAxis, Scale.LINEAR, List.of(), List.of(), List.of());
    }

    public Curve withPaper(Series s) {
        List<Series> p = new ArrayList<>(paper);
        p.add(s);
        return new Curve(xAxis, yAxis, xScale, p, slopes, marks);
    }

    public Curve withSlope(String name, double perX) {
        List<Slope> l = new ArrayList<>(slopes);
        l.add(new Slope(name, perX));
        return new Curve(xAxis, yAxis, xScale, paper, l, marks);
    }

    /** The paper's value {@code x} on the x axis, drawn as a vertical line across the model's y range. */
    public Curve withPaperX(String name, double x) {
        List<XMark> l = new ArrayList<>(marks);
        l.add(new XMark(name, x));
        return new Curve(xAxis, yAxis, xScale, paper, slopes, l);
    }

    /** The same curve with its x values (sizes) placed at their log2. */
    public Curve log2X() {
        return new Curve(xAxis, yAxis, Scale.LOG2, paper, slopes, marks);
    }

    /** True when the definition draws something of the paper's: its points or lines, a slope or an x mark. */
    public boolean showsPaper() {
        return !paper.isEmpty() || !slopes.isEmpty() || !marks.isEmpty();
    }

    /**
     * Every series to draw: the model's, then the paper's points and lines, the slopes laid on the first
     * model series, and the x marks. A curve that {@link #showsPaper shows nothing of the paper's} draws
     * the figure's paper value {@code value} (in {@code unit}, the y axis' unit) as a horizontal line, or
     * the bounds of a range, across the model's x range; a paper without a number adds nothing.
     */
    public List<Series> plotted(List<Series> model, PaperValue value, String unit) {
        if (model.isEmpty()) {
            throw new IllegalArgumentException("a curve needs at least one model series");
        }
        List<Series> all = new ArrayList<>(model);
        all.addAll(paper);
        Series first = model.get(0);
        double[] x = first.x();
        for (Slope s : slopes) {
            double x0 = x[0];
            double y0 = first.y()[0];
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                y[i] = y0 + s.perX() * (x[i] - x0);
            }
            all.add(Series.paperLine(s.name(), x, y));
        }
        double[] yr = range(model, false);
        for (XMark m : marks) {
            all.add(Series.paperLine(m.name(), new double[] {m.x(), m.x()}, new double[] {Math.min(0, yr[0]), yr[1]}));
        }
        if (!showsPaper()) {
            double[] across = range(model, true);
            if (value instanceof PaperValue.Point p) {
                all.add(horizontal("paper: " + Numbers.plain(p.value()) + " " + unit, across, p.value()));
            } else if (value instanceof PaperValue.Range r) {
                if (Double.isFinite(r.above())) {
                    all.add(horizontal("paper: above " + Numbers.plain(r.above()) + " " + unit, across, r.above()));
                }
                if (Double.isFinite(r.below())) {
                    all.add(horizontal("paper: below " + Numbers.plain(r.below()) + " " + unit, across, r.below()));
                }
            }
        }
        return all;
    }

    private static Series horizontal(String name, double[] across, double y) {
        return Series.paperLine(name, across, new double[] {y, y});
    }

    /** {min, max} of the x (or y) values of {@code series}. */
    static double[] range(List<Series> series, boolean xs) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (double v : xs ? s.x() : s.y()) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        return new double[] {lo, hi};
    }
}
