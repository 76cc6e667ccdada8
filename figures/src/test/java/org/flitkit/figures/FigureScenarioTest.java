package org.flitkit.figures;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import org.flitkit.testbench.CycleTally;
import org.flitkit.testbench.ScenarioResult;
import org.junit.jupiter.api.Test;

/** A figures scenario's table and counts: one row per figure, each status counted once. */
class FigureScenarioTest {
    private static final Citation PAPER = new Citation("A paper", "Section 1");

    /** Five figures with fixed values: within 10 % of the paper, outside, fitted on the paper, missing a mechanism, beyond it. */
    private static final class Fixed implements FigureSource {
        @Override
        public String name() {
            return "fixed";
        }

        @Override
        public List<Figure> figures() {
            return List.of(
                    Figure.builder("fixed-near", "near").from(PAPER).paper(PaperValue.of(100), "x").tolerance(10).build(),
                    Figure.builder("fixed-far", "far").from(PAPER).paper(PaperValue.of(100), "x").tolerance(10).build(),
                    Figure.builder("fixed-fitted", "fitted").from(PAPER).paper(PaperValue.of(100), "x").calibrated("k, fitted on this row").build(),
                    Figure.builder("fixed-lacking", "lacking").from(PAPER).paper(PaperValue.of(100), "x").notModelled("the host software").build(),
                    Figure.builder("fixed-beyond", "beyond").from(PAPER).paper(PaperValue.none(), "x").beyondPaper("the paper gives none").build());
        }

        @Override
        public Results measure(Set<String> ids, Executor executor) {
            return new Results(List.of(Measurement.of("fixed-near", 105), Measurement.of("fixed-far", 150), Measurement.of("fixed-fitted", 100),
                    Measurement.of("fixed-lacking", 20), Measurement.of("fixed-beyond", 7)),
                    List.of());
        }
    }

    @Test
    void everyFigureIsARowAndEveryStatusIsCountedOnce() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        ScenarioResult r = FigureScenario.run("title", "./hdl run fixed", List.of(new Fixed()), new CycleTally(null), false,
                new PrintStream(text, true, StandardCharsets.UTF_8));
        List<String> lines = text.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(7);
        assertThat(lines.get(0)).isEqualTo("title");
        assertThat(lines.get(2)).contains("`fixed-near`", "| pass |");
        assertThat(lines.get(3)).contains("`fixed-far`", "| fail |");
        assertThat(lines.get(4)).contains("`fixed-fitted`", "| 0.0 |", "| calibrated |");
        assertThat(lines.get(5)).contains("`fixed-lacking`", "| -80.0 |", "| not modelled |");
        assertThat(lines.get(6)).contains("`fixed-beyond`", "| beyond paper |");
        assertThat(r.counts()).containsEntry("figures", 5L).containsEntry("within_tolerance", 1L).containsEntry("outside_tolerance", 1L)
                .containsEntry("calibrated", 1L).containsEntry("not_modelled", 1L).containsEntry("explained", 0L).containsEntry("beyond_paper", 1L);
    }
}
