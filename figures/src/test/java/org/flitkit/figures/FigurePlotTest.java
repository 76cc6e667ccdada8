package org.flitkit.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/**
 * A plot shows the paper beside the model, cited in the legend, and its axes start at zero or say where
 * they start: the paper's value drawn when the curve gives no paper series, a paper without a number said
 * so, x marks, log2 size axes labelled in bytes.
 */
class FigurePlotTest {
    static final Citation PAPER = new Citation("A Paper on Interconnects, its long title", "Section 4.1, Fig. 8", "Paper A");

    static List<String> legend(XYChart chart) {
        return chart.getSeriesMap().values().stream().map(XYSeries::getName).toList();
    }

    static double[] ys(XYChart chart, String name) {
        return chart.getSeriesMap().get(name).getYData();
    }

    @Test
    void thePapersValueIsDrawnAndCitedWhenTheCurveHasNoPaperSeries() {
        Figure f = Figure.builder("reg-read", "register read").from(PAPER).paper(PaperValue.of(6.73), "us").explained("end to end")
                .curve(Curve.of("port", "latency (us at 100 MHz)")).build();
        List<Series> model = List.of(Series.model("model: read", new double[] {0, 1, 2}, new double[] {1.0, 0.98, 0.9}));
        XYChart chart = FigurePlot.chart(f, model);
        assertThat(legend(chart)).containsExactly("model: read", "paper: 6.73 us\n[Paper A, Section 4.1, Fig. 8]");
        assertThat(ys(chart, "paper: 6.73 us\n[Paper A, Section 4.1, Fig. 8]")).containsExactly(6.73, 6.73);
        assertThat(chart.getSeriesMap().get("paper: 6.73 us\n[Paper A, Section 4.1, Fig. 8]").getXData()).containsExactly(0.0, 2.0);
        // 0.9 .. 6.73: from zero, and the titles are the curve's own
        assertThat(chart.getStyler().getYAxisMin()).isEqualTo(0.0);
        assertThat(chart.getStyler().getXAxisMin()).isEqualTo(0.0);
        assertThat(chart.getYAxisTitle()).isEqualTo("latency (us at 100 MHz)");
        assertThat(chart.getXAxisTitle()).isEqualTo("port");
        assertThat(FigurePlot.csv(f, model)).isEqualTo("""
                series,kind,x,y
                model: read,model,0,1
                model: read,model,1,0.98
                model: read,model,2,0.9
                paper: 6.73 us,paper-line,0,6.73
                paper: 6.73 us,paper-line,2,6.73
                """);
    }

    @Test
    void anAxisThatDoesNotStartAtZeroSaysWhereItStarts() {
        double[] mtu = {64, 128, 256, 512, 1024, 2048, 4096};
        Figure f = Figure.builder("bw-mtu", "bandwidth against MTU").from(PAPER.at("Fig. 16")).paper(PaperValue.of(3.2), "GB/s")
                .curve(Curve.of("MTU (bytes)", "GB/s").log2X()
                        .withPaper(Series.paperLine("paper: 3.2 GB/s from 128 B on", new double[] {128, 4096}, new double[] {3.2, 3.2})))
                .build();
        XYChart chart = FigurePlot.chart(f, List.of(Series.model("RTL", mtu, new double[] {2.66, 3.19, 3.55, 3.75, 3.86, 3.92, 3.95})));
        assertThat(legend(chart)).containsExactly("RTL", "paper: 3.2 GB/s from 128 B on\n[Paper A, Fig. 16]");
        // 2.66 .. 3.95 would fill the top third of an axis from zero: a round start below the data, stated
        assertThat(chart.getStyler().getYAxisMin()).isEqualTo(2.6);
        assertThat(chart.getYAxisTitle()).isEqualTo("GB/s (axis from 2.6)");
        // sizes at their log2, labelled in bytes
        assertThat(chart.getXAxisTitle()).isEqualTo("MTU (bytes, log scale)");
        assertThat(chart.getSeriesMap().get("RTL").getXData()).containsExactly(6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0);
        assertThat(chart.getStyler().getXAxisMin()).isEqualTo(6.0);
        assertThat(FigurePlot.csv(f, List.of(Series.model("RTL", new double[] {128}, new double[] {3.19})))).contains("RTL,model,128,3.19");
    }

    @Test
    void axisStartsAreRoundAndBelowTheData() {
        assertThat(PlotAxis.of("first flit to NMA (cycles)", Curve.Scale.LINEAR, 40, 48))
                .isEqualTo(new PlotAxis("first flit to NMA (cycles, axis from 39)", 39, Curve.Scale.LINEAR));
        assertThat(PlotAxis.of("throughput", Curve.Scale.LINEAR, 0.549, 0.79))
                .isEqualTo(new PlotAxis("throughput (axis from 0.5)", 0.5, Curve.Scale.LINEAR));
        assertThat(PlotAxis.of("latency", Curve.Scale.LINEAR, 100, 900).startsAtZero()).isTrue();
        assertThat(PlotAxis.of("delta", Curve.Scale.LINEAR, -3, 7)).isEqualTo(new PlotAxis("delta (axis from -4)", -4, Curve.Scale.LINEAR));
        assertThat(PlotAxis.of("x", Curve.Scale.LINEAR, 5, 5)).isEqualTo(new PlotAxis("x (axis from 4.5)", 4.5, Curve.Scale.LINEAR));
        PlotAxis log = PlotAxis.of("payload (bytes)", Curve.Scale.LOG2, 4, 19);
        assertThat(log.startsAtZero()).isFalse();
        assertThat(List.of(4.0, 7.0, 13.0, 14.0, 19.0, 21.0, 7.5).stream().map(log::log2Label))
                .containsExactly("16", "128", "8192", "16K", "512K", "2M", "");
        assertThatThrownBy(() -> PlotAxis.place(Curve.Scale.LOG2, 0)).hasMessage("a log2 axis needs positive values, got 0.0");
    }

    @Test
    void aPaperWithoutANumberSaysSoInTheLegendAndAnXMarkIsAVerticalLine() {
        Figure none = Figure.builder("sat", "saturation").from(PAPER.at("Section 2.2")).paper(PaperValue.none(), "flits/cycle")
                .explained("no throughput in the paper").curve(Curve.of("VCs", "throughput")).build();
        XYChart chart = FigurePlot.chart(none, List.of(Series.model("RTL", new double[] {1, 2}, new double[] {0.5, 0.7})));
        assertThat(legend(chart)).containsExactly("RTL", "paper: gives no number for this plot\n[Paper A, Section 2.2]");
        assertThat(FigurePlot.csv(none, List.of(Series.model("RTL", new double[] {1}, new double[] {0.5})))).doesNotContain("paper");

        Figure fair = Figure.builder("fair", "fairness").from(PAPER.at("Fig. 20")).paper(PaperValue.of(1_500_000), "cycles")
                .curve(Curve.of("cycles", "deviation").withPaperX("paper: fair after 1.5 M cycles", 1_500_000)).build();
        XYChart c = FigurePlot.chart(fair, List.of(Series.model("RTL", new double[] {20_000, 3_000_000}, new double[] {0.6, 0.05})));
        String mark = "paper: fair after 1.5 M cycles\n[Paper A, Fig. 20]";
        assertThat(legend(c)).containsExactly("RTL", mark);
        assertThat(c.getSeriesMap().get(mark).getXData()).containsExactly(1_500_000.0, 1_500_000.0);
        assertThat(ys(c, mark)).containsExactly(0.0, 0.6);
        assertThat(c.getStyler().getXAxisDecimalPattern()).isEqualTo("#,##0");
    }
}
