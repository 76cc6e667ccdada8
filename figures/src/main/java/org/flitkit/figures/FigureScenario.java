package org.flitkit.figures;

import java.io.PrintStream;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import org.flitkit.testbench.CycleTally;
import org.flitkit.testbench.ScenarioResult;

/**
 * What a chip's {@code ./hdl run <chip>-figures} scenario does with its figure sources: measures every figure on a
 * pool of one thread per processor, prints a title line, the table of model beside paper with a status per row and
 * the sweep tables, and returns the counts of each status with the cycles its sources reported to {@code cycles}
 * (the sources must report their runs there). A row the source fitted to the paper shows {@code calibrated}.
 */
public final class FigureScenario {
    /** The legend of the result's counts (for {@code ./hdl run NAME --help}). */
    public static final Map<String, String> COUNTS = ScenarioResult.legend(
            "figures", "paper figures measured: within_tolerance + calibrated + explained + outside_tolerance",
            "within_tolerance", "figures within their tolerance of the paper's value",
            "calibrated", "figures whose model value a parameter was fitted on (the row says which)",
            "explained", "figures outside the tolerance for a documented reason",
            "outside_tolerance", "figures outside it with no explanation");

    private FigureScenario() {
    }

    /**
     * Measures and prints {@code sources}' figures under {@code title}; {@code command} is the run's command for the
     * table's "measured by" column, {@code calibrated} picks the rows fitted to the paper (shown as {@code calibrated},
     * not {@code explained}), {@code withTables} prints the sweep tables after the figure table.
     */
    public static ScenarioResult run(String title, String command, List<FigureSource> sources, CycleTally cycles,
            Predicate<Figure> calibrated, boolean withTables, PrintStream out) {
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
        long pass = 0;
        long fitted = 0;
        long explained = 0;
        long fail = 0;
        for (Figure f : figures) {
            Measurement m = byId.get(f.id());
            String row = FigureTable.row(f, new LastMeasured(m.id(), m.value(), LocalDate.now(), command), FigureTable.paperNumber(figures, f));
            FigureStatus st = f.status(m.value());
            if (calibrated.test(f)) {
                row = row.replace("| " + FigureStatus.EXPLAINED.text() + " |", "| calibrated |");
                fitted++;
            } else if (st == FigureStatus.PASS) {
                pass++;
            } else if (st == FigureStatus.FAIL) {
                fail++;
            } else {
                explained++;
            }
            out.println(row);
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
                .with("within_tolerance", pass).with("calibrated", fitted).with("explained", explained).with("outside_tolerance", fail);
    }
}
