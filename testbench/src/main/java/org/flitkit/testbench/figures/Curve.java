package org.flitkit.testbench.figures;

import java.util.ArrayList;
import java.util.List;

/**
 * The plot of a curve figure: axis titles with their units, the paper's series (points it reports), and
 * slopes the paper states without points ("each extra address adds ~150 us"), drawn as a line from the
 * model's first point so the two slopes can be compared by eye.
 */
public record Curve(String xAxis, String yAxis, List<Series> paper, List<Slope> slopes) {

    /** A slope the paper states, per unit of x, in the units of the y axis. */
    public record Slope(String name, double perX) {
        public Slope {
            Citation.requireText(name, "slope name");
            if (!Double.isFinite(perX)) {
                throw new IllegalArgumentException("slope '" + name + "' must be finite, got " + perX);
            }
        }
    }

    public Curve {
        Citation.requireText(xAxis, "x axis title");
        Citation.requireText(yAxis, "y axis title");
        paper = List.copyOf(paper);
        slopes = List.copyOf(slopes);
        for (Series s : paper) {
            if (!s.kind().paper()) {
                throw new IllegalArgumentException("series '" + s.name() + "' is the model's: a curve definition holds the paper's series only");
            }
        }
    }

    /** A curve with no paper series yet. */
    public static Curve of(String xAxis, String yAxis) {
        return new Curve(xAxis, yAxis, List.of(), List.of());
    }

    public Curve withPaper(Series s) {
        List<Series> p = new ArrayList<>(paper);
        p.add(s);
        return new Curve(xAxis, yAxis, p, slopes);
    }

    public Curve withSlope(String name, double perX) {
        List<Slope> l = new ArrayList<>(slopes);
        l.add(new Slope(name, perX));
        return new Curve(xAxis, yAxis, paper, l);
    }

    /** Every series to draw: the model's, then the paper's points and lines, then the slopes laid on the first model series. */
    public List<Series> plotted(List<Series> model) {
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
        return all;
    }
}
