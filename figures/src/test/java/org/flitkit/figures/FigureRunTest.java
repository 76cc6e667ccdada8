package org.flitkit.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Measuring and writing the figure directory: files, merge of a partial run (--only), staleness, and what sources may return. */
class FigureRunTest {
    static final Citation PAPER = new Citation("Paper A", "Section 4");
    static final LocalDate DAY1 = LocalDate.of(2026, 1, 2);
    static final LocalDate DAY2 = LocalDate.of(2026, 2, 3);

    /** A source whose "model" returns the values set in {@link #values}; curves are value * (1, 2, 3). */
    static final class Fake implements FigureSource {
        final String name;
        final List<Figure> figures;
        final Map<String, Double> values = new HashMap<>();
        final List<Set<String>> asked = new ArrayList<>();
        List<Parameter> parameters = List.of();

        Fake(String name, List<Figure> figures, double... values) {
            this.name = name;
            this.figures = figures;
            for (int i = 0; i < figures.size(); i++) {
                this.values.put(figures.get(i).id(), values[i]);
            }
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public List<Figure> figures() {
            return figures;
        }

        @Override
        public List<Parameter> parameters() {
            return parameters;
        }

        @Override
        public Results measure(Set<String> ids, Executor executor) {
            asked.add(ids);
            List<Measurement> out = new ArrayList<>();
            for (Figure f : figures) {
                if (ids.contains(f.id())) {
                    double v = values.get(f.id());
                    out.add(new Measurement(f.id(), v, f.curve().isEmpty() ? List.of()
                            : List.of(Series.model("model", new double[] {1, 2, 3}, new double[] {v, 2 * v, 3 * v}))));
                }
            }
            double first = values.get(figures.get(0).id());
            return new Results(out, List.of(new Table(name + "-sweep", List.of("n", "v"), List.of(new double[] {1, first}))));
        }
    }

    static Figure curve(String id, double paper) {
        return Figure.builder(id, "a curve").from(PAPER.at("Fig. 9")).paper(PaperValue.of(paper), "us")
                .curve(Curve.of("addresses", "latency (us)").withPaper(Series.paperPoints("paper", new double[] {1, 2}, new double[] {9, 19}))
                        .withSlope("paper slope", 10))
                .build();
    }

    static Figure scalar(String id, double paper, boolean slow) {
        Figure.Builder b = Figure.builder(id, "a value").from(PAPER.at("Table 1")).paper(PaperValue.of(paper), "cycles");
        return (slow ? b.slow() : b).build();
    }

    Fake a = new Fake("a", List.of(curve("a-curve", 10), scalar("a-slow", 100, true)), 11, 100);
    Fake b = new Fake("b", List.of(scalar("b-one", 40, false)), 40);
    FigureRegistry registry = new FigureRegistry(List.of(a, b));

    @Test
    void writesTableLogPlotsAndData(@TempDir Path dir) throws Exception {
        List<LastMeasured> rows = FigureRun.run(registry, registry.all(), dir, Runnable::run, DAY1, "./hdl figures");
        assertThat(rows).extracting(LastMeasured::id).containsExactly("a-curve", "a-slow", "b-one");
        assertThat(Files.readString(dir.resolve("measurements.csv"))).isEqualTo("""
                id,value,measured,command
                a-curve,11,2026-01-02,./hdl figures
                a-slow,100,2026-01-02,./hdl figures
                b-one,40,2026-01-02,./hdl figures
                """);
        assertThat(Files.readString(dir.resolve("README.md"))).isEqualTo(FigureTable.markdown(registry.figures(), MeasurementLog.read(dir)))
                .contains("| `a-curve` | a curve | [1] Fig. 9 | 11 | 10 | us | +10.0 | ±10 % | pass | 2026-01-02 | `./hdl figures` |");
        assertThat(Files.readString(dir.resolve("a-curve.csv"))).isEqualTo("""
                series,kind,x,y
                model,model,1,11
                model,model,2,22
                model,model,3,33
                paper,paper,1,9
                paper,paper,2,19
                paper slope,paper-line,1,11
                paper slope,paper-line,2,21
                paper slope,paper-line,3,31
                """);
        assertThat(Files.readString(dir.resolve("a-sweep.csv"))).isEqualTo("n,v\n1,11\n");
        byte[] png = Files.readAllBytes(dir.resolve("a-curve.png"));
        assertThat(Arrays.copyOf(png, 8)).containsExactly(0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(img.getWidth()).isEqualTo(FigurePlot.WIDTH);
        assertThat(img.getHeight()).isEqualTo(FigurePlot.HEIGHT);
        assertThat(png.length).isLessThan(100_000);
        assertThat(dir.resolve("a-slow.png")).doesNotExist();
    }

    @Test
    void onlyReplacesTheSelectedRowsAndKeepsTheOthersWithTheirDates(@TempDir Path dir) throws Exception {
        FigureRun.run(registry, registry.all(), dir, Runnable::run, DAY1, "./hdl figures");
        String curveData = Files.readString(dir.resolve("a-curve.csv"));
        a.values.put("a-curve", 12.0);
        b.values.put("b-one", 50.0);
        FigureRun.run(registry, registry.select("b"), dir, Runnable::run, DAY2, "./hdl figures --only b");
        assertThat(a.asked).hasSize(1); // source a did not run again
        assertThat(Files.readString(dir.resolve("measurements.csv"))).isEqualTo("""
                id,value,measured,command
                a-curve,11,2026-01-02,./hdl figures
                a-slow,100,2026-01-02,./hdl figures
                b-one,50,2026-02-03,./hdl figures --only b
                """);
        assertThat(Files.readString(dir.resolve("a-curve.csv"))).isEqualTo(curveData);
        assertThat(Files.readString(dir.resolve("README.md")))
                .contains("| `a-curve` | a curve | [1] Fig. 9 | 11 | 10 | us | +10.0 | ±10 % | pass | 2026-01-02 | `./hdl figures` |")
                .contains("| `b-one` | a value | [1] Table 1 | 50 | 40 | cycles | +25.0 | ±10 % | fail | 2026-02-03 | `./hdl figures --only b` |");

        // one figure by id: its source is asked for that figure only
        FigureRun.run(registry, registry.select("a-curve"), dir, Runnable::run, DAY2, "./hdl figures --only a-curve");
        assertThat(a.asked.get(1)).containsExactly("a-curve");
        assertThat(MeasurementLog.read(dir).get("a-curve")).isEqualTo(new LastMeasured("a-curve", 12, DAY2, "./hdl figures --only a-curve"));
        assertThat(MeasurementLog.read(dir).get("a-slow").date()).isEqualTo(DAY1);
    }

    @Test
    void rowsOfFiguresThatNoLongerExistAreDropped(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("measurements.csv"), "id,value,measured,command\nold-figure,1,2025-01-01,./hdl figures\n");
        FigureRun.run(registry, registry.select("b"), dir, Runnable::run, DAY1, "./hdl figures --only b");
        assertThat(MeasurementLog.read(dir)).containsOnlyKeys("b-one");
        assertThat(Files.readString(dir.resolve("README.md")))
                .contains("| `a-curve` | a curve | [1] Fig. 9 | - | 10 | us | - | ±10 % | not measured | - | - |");
    }

    @Test
    void upToDateRightAfterARunAndStaleWhenTheModelOrADefinitionChanges(@TempDir Path dir) throws Exception {
        FigureRun.run(registry, registry.all(), dir, Runnable::run, DAY1, "./hdl figures");
        assertThat(FigureRun.staleness(registry, dir, Runnable::run)).isEmpty();
        assertThat(a.asked.get(1)).containsExactly("a-curve"); // the slow figure was not measured again

        a.values.put("a-slow", 101.0); // slow figures are not re-measured: not seen
        assertThat(FigureRun.staleness(registry, dir, Runnable::run)).isEmpty();

        a.values.put("a-curve", 12.0);
        assertThat(FigureRun.staleness(registry, dir, Runnable::run)).containsExactly(
                "a-curve: the model gives 12 us now, 11 in measurements.csv",
                "a-curve: a-curve.csv differs from the model's series now: line 2 is 'model,model,1,11', should be 'model,model,1,12'",
                "a-sweep.csv differs from the sweep's rows now");
        a.values.put("a-curve", 11.0);

        // the same sources with one paper value changed: the table no longer matches the definitions
        Fake b2 = new Fake("b", List.of(scalar("b-one", 41, false)), 40);
        assertThat(FigureRun.staleness(new FigureRegistry(List.of(a, b2)), dir, Runnable::run)).containsExactly(
                "README.md differs from the definitions and measurements.csv: line 19 is "
                        + "'| `b-one` | a value | [1] Table 1 | 40 | 40 | cycles | 0.0 | ±10 % | pass | 2026-01-02 | `./hdl figures` |', should be "
                        + "'| `b-one` | a value | [1] Table 1 | 40 | 41 | cycles | -2.4 | ±10 % | pass | 2026-01-02 | `./hdl figures` |'");

        // a parameter's value changed in the code: parameters.md is stale
        a.parameters = List.of(Parameter.of("clock", 100, "MHz", Parameter.Origin.ASSUMPTION, "a round number"));
        assertThat(FigureRun.staleness(registry, dir, Runnable::run)).containsExactly(
                "parameters.md differs from the sources' parameters: line 8 is '(end of file)', should be ''");
        FigureRun.run(registry, List.of(), dir, Runnable::run, DAY1, "./hdl figures");
        assertThat(Files.readString(dir.resolve("parameters.md"))).endsWith("""
                ## `a`

                | parameter | value | unit | from | source |
                |---|---|---|---|---|
                | clock | 100 | MHz | assumption | a round number |
                """);
        assertThat(FigureRun.staleness(registry, dir, Runnable::run)).isEmpty();

        Files.delete(dir.resolve("a-curve.png"));
        Files.writeString(dir.resolve("measurements.csv"), Files.readString(dir.resolve("measurements.csv")) + "gone,1,2025-01-01,x\n");
        assertThat(FigureRun.staleness(registry, dir, Runnable::run)).contains("a-curve: a-curve.png is missing",
                "gone: in measurements.csv but no such figure");
    }

    @Test
    void namesAreUniqueAcrossSources() {
        assertThatThrownBy(() -> new FigureRegistry(List.of(a, new Fake("c", List.of(scalar("a-slow", 1, false)), 1))))
                .hasMessage("two figures with id 'a-slow' (sources a and c)");
        assertThatThrownBy(() -> new FigureRegistry(List.of(a, new Fake("c", List.of(scalar("a", 1, false)), 1))))
                .hasMessage("figure id 'a' is also a source name");
        assertThatThrownBy(() -> registry.select("x"))
                .hasMessage("no figure source or figure named 'x'; sources: a, b; figures: a-curve, a-slow, b-one");
        assertThat(registry.fast()).extracting(s -> s.source().name() + "=" + s.ids()).containsExactly("a=[a-curve]", "b=[b-one]");
    }

    @Test
    void aSourceMustMeasureExactlyWhatItIsAskedFor(@TempDir Path dir) {
        FigureSource lazy = new FigureSource() {
            @Override
            public String name() {
                return "lazy";
            }

            @Override
            public List<Figure> figures() {
                return List.of(scalar("l-one", 1, false), scalar("l-two", 1, false));
            }

            @Override
            public Results measure(Set<String> ids, Executor executor) {
                return new Results(List.of(Measurement.of("l-one", 1)), List.of());
            }
        };
        FigureRegistry r = new FigureRegistry(List.of(lazy));
        assertThatThrownBy(() -> FigureRun.run(r, r.all(), dir, Runnable::run, DAY1, "x")).hasMessage("source lazy did not measure l-two");
        assertThatThrownBy(() -> FigureRun.run(r, r.select("l-two"), dir, Runnable::run, DAY1, "x"))
                .hasMessage("source lazy measured l-one, which was not asked for");
        assertThat(dir.resolve("README.md")).doesNotExist();
    }
}
