package org.flitkit.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A curve figure's plot (PNG, XChart) and its data (CSV): the model's series as lines with markers, the
 * paper's points as open markers and the paper's lines dashed, each cited in the legend, axis titles with
 * units that say where an axis does not start at zero ({@link PlotAxis}), a legend.
 */
public final class FigurePlot {
    static final int WIDTH = 800;
    static final int HEIGHT = 540;
    /** Legend text of a plot whose paper gives no number for it. */
    static final String NO_NUMBER = "paper: gives no number for this plot";
    private static final double LARGE = 100_000;
    private static final Color[] MODEL = {new Color(0x1f77b4), new Color(0x2ca02c), new Color(0x9467bd), new Color(0x8c564b)};
    private static final Color[] PAPER = {new Color(0xd62728), new Color(0xff7f0e), new Color(0xe377c2)};
    // model series that coincide (a write as fast as a read) must stay visible: each its own marker and dash
    private static final Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.CROSS, SeriesMarkers.SQUARE,
        SeriesMarkers.TRIANGLE_UP};
    private static final BasicStroke[] LINES = {SeriesLines.SOLID, SeriesLines.DASH_DASH, SeriesLines.SOLID, SeriesLines.DOT_DOT};

    private FigurePlot() {
    }

    /** Long-format CSV of every plotted series: {@code series,kind,x,y}. */
    public static String csv(Figure f, List<Series> model) {
        StringBuilder sb = new StringBuilder("series,kind,x,y\n");
        for (Series s : plotted(f, model)) {
            String kind = switch (s.kind()) {
                case MODEL -> "model";
                case PAPER_POINTS -> "paper";
                case PAPER_LINE -> "paper-line";
            };
            double[] x = s.x();
            double[] y = s.y();
            for (int i = 0; i < x.length; i++) {
                sb.append(s.name()).append(',').append(kind).append(',').append(Numbers.plain(x[i])).append(',').append(Numbers.plain(y[i]))
                        .append('\n');
            }
        }
        return sb.toString();
    }

    /** The PNG bytes of the plot. */
    public static byte[] png(Figure f, List<Series> model) {
        try {
            return BitmapEncoder.getBitmapBytes(chart(f, model), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot draw " + f.id(), e);
        }
    }

    /**
     * The chart of the plot. Every series of the paper's is named with the figure's citation in the legend
     * (a paper without a number for the plot says so there, cited too), and both axes follow {@link PlotAxis}:
     * from zero, or from where their titles say.
     */
    static XYChart chart(Figure f, List<Series> model) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true"); // drawn off screen, also on machines without a display
        }
        Curve c = curve(f);
        List<Series> all = plotted(f, model);
        double[] xr = Curve.range(all, true);
        double[] yr = Curve.range(all, false);
        PlotAxis xa = PlotAxis.of(c.xAxis(), c.xScale(), PlotAxis.place(c.xScale(), xr[0]), PlotAxis.place(c.xScale(), xr[1]));
        PlotAxis ya = PlotAxis.of(c.yAxis(), Curve.Scale.LINEAR, yr[0], yr[1]);
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(f.title()).xAxisTitle(xa.title()).yAxisTitle(ya.title())
                .theme(Styler.ChartTheme.Matlab).build();
        var st = chart.getStyler();
        st.setLegendPosition(Styler.LegendPosition.OutsideS); // below the plot: never over the data
        st.setLegendLayout(Styler.LegendLayout.Vertical);
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotGridLinesVisible(true);
        st.setMarkerSize(8);
        st.setLegendSeriesLineLength(28);
        st.setXAxisMin(xa.start());
        st.setYAxisMin(ya.start());
        if (c.xScale() == Curve.Scale.LOG2) {
            chart.setCustomXAxisTickLabelsFormatter(xa::log2Label);
        } else if (xr[1] >= LARGE) {
            st.setXAxisDecimalPattern(PlotAxis.largeNumbers().toPattern());
        }
        if (yr[1] >= LARGE) {
            st.setYAxisDecimalPattern(PlotAxis.largeNumbers().toPattern());
        }
        String cite = "\n[" + f.citation().label() + "]"; // a second line of the legend entry
        int m = 0;
        int p = 0;
        for (Series s : all) {
            double[] x = s.x();
            for (int i = 0; i < x.length; i++) {
                x[i] = xa.place(x[i]);
            }
            XYSeries xs = chart.addSeries(s.kind().paper() ? s.name() + cite : s.name(), x, s.y());
            switch (s.kind()) {
                case MODEL -> {
                    xs.setLineColor(MODEL[m % MODEL.length]);
                    xs.setMarkerColor(MODEL[m % MODEL.length]);
                    xs.setMarker(MARKERS[m % MARKERS.length]);
                    xs.setLineStyle(LINES[m % LINES.length]);
                    m++;
                }
                case PAPER_POINTS -> {
                    xs.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                    xs.setMarker(SeriesMarkers.DIAMOND);
                    xs.setMarkerColor(PAPER[p++ % PAPER.length]);
                }
                case PAPER_LINE -> {
                    xs.setMarker(SeriesMarkers.NONE);
                    xs.setLineColor(PAPER[p++ % PAPER.length]);
                    xs.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 5f}, 0f));
                }
            }
        }
        if (p == 0) {
            // the paper has no number for this plot: the legend says so, with where the paper describes it
            Series first = model.get(0);
            XYSeries note = chart.addSeries(NO_NUMBER + cite, new double[] {xa.place(first.x()[0])}, new double[] {first.y()[0]});
            note.setMarker(SeriesMarkers.NONE);
            note.setLineStyle(SeriesLines.NONE);
        }
        return chart;
    }

    /** Every series the plot draws: the model's, and the paper's as the curve and the figure's paper value give them. */
    static List<Series> plotted(Figure f, List<Series> model) {
        return curve(f).plotted(model, f.paper(), f.unit());
    }

    private static Curve curve(Figure f) {
        return f.curve().orElseThrow(() -> new IllegalArgumentException("figure " + f.id() + " is not a curve"));
    }
}
