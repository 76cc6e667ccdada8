package org.flitkit.figures;

import java.io.PrintStream;
import java.time.LocalDate;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.flitkit.testbench.CycleTally;
import org.flitkit.testbench.ScenarioResult;

/**
 * What a chip's {@code ./hdl run <chip>-figures} scenario does with its figure sources: measures every figure on a
 * pool of one thread per processor, prints a title line, the table of model beside paper with a status per row and
 * the sweep tables, and returns the counts of each status with the cycles its sources reported to {@code cycles}
 * (the sources must report their runs there).
 */
public final class FigureScenario {
    /** The legend of the result's counts (for {@code ./hdl run NAME --help}). */
    public static final Map<String, String> COUNTS = ScenarioResult.legend(
            "figures", "paper figures measured: the sum of the six below",
            "within_tolerance", "status pass: within the tolerance of the paper's value",
            "outside_tolerance", "status fail: outside it",
            "calibrated", "a parameter was fitted on the figure (its note says which)",
            "not_modelled", "the paper's number includes a mechanism the model lacks (its note names it)",
            "explained", "a difference of definition only (its note says which)",
            "beyond_paper", "a number the paper does not report");

    private FigureScenario() {
    }

    /**
     * Measures and prints {@code sources}' figures under {@code title}; {@code command} is the run's command for the
     * table's "measured by" column, {@code withTables} prints the sweep tables after the figure table.
     */
    public static ScenarioResult run(String title, String command, List<FigureSource> sources, CycleTally cycles, boolean withTables,
            PrintStream out) {
        long t0 = System.nanoTime();
        FigureRegistry registry = new FigureRegistry(sources);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
        FigureRun.Measured measured;
        try {
            measured = FigureRun.measure(registry, registry.all(), pool);
        } finally {
            pool.shutdown();
        }
        List<Figure> figures = registry.figures();
        Map<String, Measurement> byId = measured.byId();
        List<Table> tables = measured.tables();
        out.println(title);
        out.println(FigureTable.HEADER);
        Map<FigureStatus, Long> counts = new EnumMap<>(FigureStatus.class);
        for (Figure f : figures) {
            Measurement m = byId.get(f.id());
            out.println(FigureTable.row(f, new LastMeasured(m.id(), m.value(), LocalDate.now(), command), FigureTable.paperNumber(figures, f)));
            counts.merge(f.status(m.value()), 1L, Long::sum);
        }
        if (withTables) {
            for (Table t : tables) {
                out.println();
                out.println(t.name() + ":");
                out.print(t.csv());
            }
        }
        out.flush();
        double secs = (System.nanoTime() - t0) / 1e9;
        return new ScenarioResult(cycles.total(), secs, 0, null, null, null, Map.of()).with("figures", figures.size())
                .with("within_tolerance", counts.getOrDefault(FigureStatus.PASS, 0L))
                .with("outside_tolerance", counts.getOrDefault(FigureStatus.FAIL, 0L))
                .with("calibrated", counts.getOrDefault(FigureStatus.CALIBRATED, 0L))
                .with("not_modelled", counts.getOrDefault(FigureStatus.NOT_MODELLED, 0L))
                .with("explained", counts.getOrDefault(FigureStatus.EXPLAINED, 0L))
                .with("beyond_paper", counts.getOrDefault(FigureStatus.BEYOND_PAPER, 0L));
    }
}
