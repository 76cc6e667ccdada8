package org.flitkit.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A figure's verdict: deviation from the paper, tolerance, bounds, explained deviations, and the definitions it refuses. */
class FigureTest {
    static final Citation PAPER = new Citation("A Paper on Interconnects", "Section 4.1, Fig. 8(a)");

    static Figure point(double paper, double tolerance) {
        return Figure.builder("f", "a latency").from(PAPER).paper(PaperValue.of(paper), "us").tolerance(tolerance).build();
    }

    @Test
    void deviationIsRelativeToThePaperInPercent() {
        Figure f = point(150, 10);
        assertThat(f.deviationPercent(121.66).getAsDouble()).isEqualTo((121.66 - 150) / 150 * 100);
        assertThat(f.deviationPercent(165).getAsDouble()).isEqualTo(10.0);
        // a negative paper value: deviation still says whether the model is above (+) or below (-)
        assertThat(point(-4, 10).deviationPercent(-3).getAsDouble()).isEqualTo(25.0);
    }

    @Test
    void toleranceIsInclusiveBothWays() {
        Figure f = point(3000, 10);
        assertThat(f.status(3112.86)).isEqualTo(FigureStatus.PASS);
        assertThat(f.status(3300)).isEqualTo(FigureStatus.PASS);
        assertThat(f.status(2700)).isEqualTo(FigureStatus.PASS);
        assertThat(f.status(3300.01)).isEqualTo(FigureStatus.FAIL);
        assertThat(f.status(2699.99)).isEqualTo(FigureStatus.FAIL);
        assertThat(point(40, 0).status(40)).isEqualTo(FigureStatus.PASS);
        assertThat(point(40, 0).status(41)).isEqualTo(FigureStatus.FAIL);
    }

    @Test
    void theDefaultToleranceIsTenPercent() {
        Figure f = Figure.builder("f", "x").from(PAPER).paper(PaperValue.of(100), "cycles").build();
        assertThat(f.check()).isEqualTo(FigureCheck.tolerance(10));
        assertThat(f.status(110)).isEqualTo(FigureStatus.PASS);
        assertThat(f.status(110.5)).isEqualTo(FigureStatus.FAIL);
    }

    @Test
    void boundsAreOpenAndNeedNoTolerance() {
        Figure f = Figure.builder("f", "2 registers / 1").from(PAPER).paper(PaperValue.between(1, 2), "ratio").build();
        assertThat(f.check()).isEqualTo(FigureCheck.inRange());
        assertThat(f.status(1.011)).isEqualTo(FigureStatus.PASS);
        assertThat(f.status(1)).isEqualTo(FigureStatus.FAIL);
        assertThat(f.status(2)).isEqualTo(FigureStatus.FAIL);
        assertThat(f.deviationPercent(1.5)).isEmpty();
        Figure below = Figure.builder("g", "write / read").from(PAPER).paper(PaperValue.below(1), "ratio").build();
        assertThat(below.status(0.98)).isEqualTo(FigureStatus.PASS);
        assertThat(below.status(1)).isEqualTo(FigureStatus.FAIL);
        assertThat(below.paper().text()).isEqualTo("< 1");
        assertThat(f.paper().text()).isEqualTo("> 1, < 2");
        assertThat(PaperValue.above(0.5).text()).isEqualTo("> 0.5");
    }

    @Test
    void aNotedFigureIsNeverJudgedButKeepsItsDeviationAndItsStatusSaysWhy() {
        Figure f = Figure.builder("f", "read").from(PAPER).paper(PaperValue.of(6.73), "us").notModelled("the NIC and the host software").build();
        assertThat(f.status(0.95)).isEqualTo(FigureStatus.NOT_MODELLED);
        assertThat(f.status(6.73)).isEqualTo(FigureStatus.NOT_MODELLED);
        assertThat(f.deviationPercent(0.95).getAsDouble()).isEqualTo((0.95 - 6.73) / 6.73 * 100);
        Figure none = Figure.builder("g", "per RS").from(PAPER).paper(PaperValue.none(), "cycles").beyondPaper("the paper gives none").build();
        assertThat(none.status(1)).isEqualTo(FigureStatus.BEYOND_PAPER);
        assertThat(none.deviationPercent(1)).isEmpty();
        Figure fitted = Figure.builder("h", "peak").from(PAPER).paper(PaperValue.of(202), "MB/s").calibrated("firmware cycles, fitted on this row").build();
        assertThat(fitted.status(202)).isEqualTo(FigureStatus.CALIBRATED);
        assertThat(fitted.status(400)).isEqualTo(FigureStatus.CALIBRATED);
        Figure defined = Figure.builder("i", "limit").from(PAPER).paper(PaperValue.of(0.586), "load").explained("the paper's is the limit N -> infinity").build();
        assertThat(defined.status(0.6)).isEqualTo(FigureStatus.EXPLAINED);
        assertThat(FigureStatus.BEYOND_PAPER.text()).isEqualTo("beyond paper");
    }

    @Test
    void refusesDefinitionsThatCannotBeJudged() {
        assertThatThrownBy(() -> Figure.builder("f", "x").from(PAPER).paper(PaperValue.none(), "us").build())
                .hasMessageContaining("the paper gives no value, so the row needs a note");
        assertThatThrownBy(() -> Figure.builder("f", "x").from(PAPER).paper(PaperValue.none(), "us").calibrated("k").build())
                .hasMessageContaining("a calibrated figure is fitted to a paper number");
        assertThatThrownBy(() -> Figure.builder("f", "x").from(PAPER).paper(PaperValue.between(1, 2), "ratio").tolerance(10).build())
                .hasMessageContaining("paper bounds are judged 'in range'");
        assertThatThrownBy(() -> new Figure("f", "x", "us", PAPER, PaperValue.of(1), FigureCheck.inRange(), java.util.Optional.empty(), false))
                .hasMessageContaining("a paper value is judged with a tolerance");
        assertThatThrownBy(() -> Figure.builder("F 1", "x").from(PAPER).paper(PaperValue.of(1), "us").build())
                .hasMessageContaining("figure id 'F 1' must be lower-case");
        assertThatThrownBy(() -> Figure.builder("f", "x").paper(PaperValue.of(1), "us").build()).hasMessageContaining("figure f needs a citation");
        assertThatThrownBy(() -> PaperValue.of(0)).hasMessageContaining("non-zero");
        assertThatThrownBy(() -> PaperValue.between(2, 1)).hasMessageContaining("above < below");
        assertThatThrownBy(() -> FigureCheck.tolerance(-1)).hasMessageContaining("tolerance must be a finite percentage >= 0");
        assertThatThrownBy(() -> Figure.builder("f", "a | b").from(PAPER).paper(PaperValue.of(1), "us").build())
                .hasMessageContaining("cannot contain '|'");
    }

    @Test
    void citesPapersByTitleNotByFile() {
        assertThatThrownBy(() -> new Citation("shared/seeds/000_9be0f803b405a1a2.txt", "Section 4"))
                .hasMessageContaining("cite the paper by its title and section, not a file");
        assertThatThrownBy(() -> new Citation("paper.pdf", "Section 4")).hasMessageContaining("not a file");
        assertThatThrownBy(() -> new Citation("A Paper", " ")).hasMessageContaining("place in the paper (section, figure or table) is missing");
        assertThat(PAPER.at("Table 2")).isEqualTo(new Citation("A Paper on Interconnects", "Table 2"));
    }
}
