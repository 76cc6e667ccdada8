package org.flitkit.env.ring;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flitkit.env.ring.topo.MultiRing;
import org.flitkit.env.ring.topo.RingFamilies;
import org.flitkit.env.ring.topo.RingSchedule;
import org.flitkit.rtl.ring.RingKind;
import org.flitkit.testbench.RunConfig;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The multi-ring plots of docs/multiring.md, each a PNG with its data as CSV: the effective capacity C(N) of the spec's
 * step sets for N = 16..128 (analytic), and the mean delivery time against offered load measured on the slotted
 * multi-ring RTL ("Multi-rings and distributed full switches": delay grows like F / (c - s)).
 */
public final class MultiringFigures {
    /** The distinct step sets of the spec's growable families, plus the ordinary duplex ring. */
    public static final List<String> FAMILY_STEPS = List.of("1", "1,3", "1,2,3", "1,2,3,7", "1,2,3,5,7,9");
    static final int[] LOAD_NODES = {16};
    static final List<String> LOAD_STEPS = List.of("1", "1,3", "1,2,3");

    private MultiringFigures() {
    }

    /** One curve: name, x and y. */
    record Curve(String name, List<Double> x, List<Double> y) {
    }

    /** C(N) for N = 16, 24, ..., 128 of every family step set, shortest and balanced. */
    public static List<Curve> capacityVsNodes() {
        List<Curve> curves = new ArrayList<>();
        for (String steps : FAMILY_STEPS) {
            for (String schedule : List.of("shortest", "balanced")) {
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                int largest = Integer.parseInt(steps.substring(steps.lastIndexOf(',') + 1));
                for (int n = 16; n <= 128; n += 8) {
                    if (n <= 2 * largest) {
                        continue; // the pairs +-s and +-(N-s) coincide: not the same step set
                    }
                    MultiRing m = MultiRing.parse(n, steps);
                    x.add((double) n);
                    y.add(RingSchedule.named(schedule, m).capacity().effective());
                }
                curves.add(new Curve("{+-" + steps.replace(",", ",+-") + "} " + schedule, x, y));
            }
        }
        // the spec's growable families: at each N its own smaller and larger step set
        for (int which = 0; which < 2; which++) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = which; i < RingFamilies.SPEC.size(); i += 2) {
                RingFamilies.Member f = RingFamilies.SPEC.get(i);
                x.add((double) f.nodes());
                y.add(RingSchedule.balanced(f.rings()).capacity().effective());
            }
            curves.add(new Curve("spec family, " + (which == 0 ? "fewer" : "more") + " rings at each N, balanced", x, y));
        }
        return curves;
    }

    /** Mean delivery time against offered packets per node per cycle, on the RTL, up to 95 % of each multi-ring's C/N. */
    public static List<Curve> deliveryVsLoad(long cycles) {
        List<Curve> curves = new ArrayList<>();
        for (int n : LOAD_NODES) {
            for (String steps : LOAD_STEPS) {
                RingSchedule s = RingSchedule.shortest(MultiRing.parse(n, steps));
                double top = s.capacity().effective() / n;
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (double f : new double[] {0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95}) {
                    double load = Math.round(f * top * 1000) / 1000.0;
                    RingSaturation.Measured r = RingSaturation.run(s, RingKind.SLOTTED, load, 16, new RunConfig(1, cycles, null));
                    x.add(load);
                    y.add(r.meanDelivery());
                }
                curves.add(new Curve("N=" + n + " " + s.rings().label() + " (C/N=" + String.format(Locale.ROOT, "%.3f", top) + ")", x, y));
            }
        }
        return curves;
    }

    /** Writes {@code id}.png and {@code id}.csv into {@code dir}; returns the two paths. */
    public static List<Path> write(Path dir, String id, String title, String xAxis, String yAxis, List<Curve> curves) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(900).height(600).title(title).xAxisTitle(xAxis).yAxisTitle(yAxis)
                .theme(Styler.ChartTheme.Matlab).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        StringBuilder csv = new StringBuilder("series,x,y\n");
        for (Curve c : curves) {
            chart.addSeries(c.name(), c.x(), c.y());
            for (int i = 0; i < c.x().size(); i++) {
                csv.append('"').append(c.name()).append('"').append(',').append(fmt(c.x().get(i))).append(',').append(fmt(c.y().get(i))).append('\n');
            }
        }
        try {
            Files.createDirectories(dir);
            Path png = dir.resolve(id + ".png");
            Path data = dir.resolve(id + ".csv");
            Files.write(png, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
            Files.writeString(data, csv.toString());
            return List.of(png, data);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + id + " to " + dir, e);
        }
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }
}
