package org.flitkit.env.chpp;

import java.io.PrintStream;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.flitkit.testbench.CycleTally;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.figures.Figure;
import org.flitkit.testbench.figures.FigureSource;
import org.flitkit.testbench.figures.FigureTable;
import org.flitkit.testbench.figures.LastMeasured;
import org.flitkit.testbench.figures.Measurement;
import org.flitkit.testbench.figures.Status;

/**
 * {@code ./hdl run chpp-figures}: every cHPP figure of the paper measured on the RTL (the NIC's, {@link ChppFigures},
 * and the crossbar's, {@link ChppXbarFigures}), printed as figure-table rows, model beside paper with the
 * deviation. The sessions run in parallel, one per processor; the PASS line's cycles are those of all of them, runs,
 * waits and crossbar loads, which the command's status line counts as they go. docs/chpp-nic.md, "Figures".
 */
public final class ChppFiguresScenario {
    /** The counts of the PASS line: the figures of the table above it, by status. */
    public static final Map<String, String> COUNTS = ScenarioResult.legend(
            "figures", "paper figures measured: within_tolerance + explained + outside_tolerance",
            "within_tolerance", "figures within their tolerance of the paper's value",
            "explained", "figures outside it for a documented reason",
            "outside_tolerance", "figures outside it with no explanation");

    private ChppFiguresScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        return run(cfg, System.out);
    }

    public static ScenarioResult run(RunConfig cfg, PrintStream out) {
        long t0 = System.nanoTime();
        CycleTally cycles = new CycleTally(cfg.progress());
        List<FigureSource> sources = List.of(new ChppFigures(cfg.seed(), cycles), new ChppXbarFigures(cycles));
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
        List<Figure> figures = new ArrayList<>();
        List<Measurement> measured = new ArrayList<>();
        try {
            for (FigureSource s : sources) {
                Set<String> ids = s.figures().stream().map(Figure::id).collect(Collectors.toCollection(java.util.LinkedHashSet::new));
                figures.addAll(s.figures());
                measured.addAll(s.measure(ids, pool).measurements());
            }
        } finally {
            pool.shutdown();
        }
        Map<String, Measurement> byId = measured.stream().collect(Collectors.toMap(Measurement::id, m -> m));
        out.println("cHPP figures: two RTL DMA engines of one controller against the PCIe host model (250 MHz, PcieParams.chpp()),"
                + " and the crossbar alone; seed " + cfg.seed());
        out.println(FigureTable.HEADER);
        long pass = 0;
        long explained = 0;
        long fail = 0;
        for (Figure f : figures) {
            Measurement m = byId.get(f.id());
            out.println(FigureTable.row(f, new LastMeasured(m.id(), m.value(), LocalDate.now(), "./hdl run chpp-figures"),
                    FigureTable.paperNumber(figures, f)));
            Status st = f.status(m.value());
            if (st == Status.PASS) {
                pass++;
            } else if (st == Status.FAIL) {
                fail++;
            } else {
                explained++;
            }
        }
        out.flush();
        double secs = (System.nanoTime() - t0) / 1e9;
        return new ScenarioResult(cycles.total(), secs, 0, null, null, null, Map.of()).with("figures", figures.size()).with("within_tolerance", pass)
                .with("explained", explained).with("outside_tolerance", fail);
    }
}
