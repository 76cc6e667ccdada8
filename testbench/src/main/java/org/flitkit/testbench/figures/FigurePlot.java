package org.flitkit.testbench.figures;

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
 * paper's points as open markers and the paper's lines dashed, axis titles with units, a legend.
 */
public final class FigurePlot {
    static final int WIDTH = 720;
    static final int HEIGHT = 480;
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
        for (Series s : curve(f).plotted(model)) {
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
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true"); // drawn off screen, also on machines without a display
        }
        Curve c = curve(f);
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(f.title()).xAxisTitle(c.xAxis()).yAxisTitle(c.yAxis())
                .theme(Styler.ChartTheme.Matlab).build();
        var st = chart.getStyler();
        st.setLegendPosition(Styler.LegendPosition.OutsideS); // below the plot: never over the data
        st.setLegendLayout(Styler.LegendLayout.Vertical);
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotGridLinesVisible(true);
        st.setMarkerSize(8);
        st.setLegendSeriesLineLength(28);
        int m = 0;
        int p = 0;
        for (Series s : c.plotted(model)) {
            XYSeries xs = chart.addSeries(s.name(), s.x(), s.y());
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
        try {
            return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot draw " + f.id(), e);
        }
    }

    private static Curve curve(Figure f) {
        return f.curve().orElseThrow(() -> new IllegalArgumentException("figure " + f.id() + " is not a curve"));
    }
}
