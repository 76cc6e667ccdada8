package org.flitkit.env.mnc;

import java.io.PrintStream;
import java.time.LocalDate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.figures.Check;
import org.flitkit.testbench.figures.Figure;
import org.flitkit.testbench.figures.FigureSource;
import org.flitkit.testbench.figures.FigureTable;
import org.flitkit.testbench.figures.LastMeasured;
import org.flitkit.testbench.figures.Measurement;
import org.flitkit.testbench.figures.Status;
import org.flitkit.testbench.figures.Table;

/**
 * {@code ./hdl run mnc-figures}: every {@link MncFigures} row measured on the node RTL and the platform, model
 * beside paper with the deviation and a status (a calibration point shows {@code calibrated}), then the
 * sweep over the bus rate. The runs go in parallel, one per processor. docs/mnc.md, "Figures".
 */
public final class MncFiguresScenario {
    private MncFiguresScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        return run(cfg, System.out);
    }

    public static ScenarioResult run(RunConfig cfg, PrintStream out) {
        long t0 = System.nanoTime();
        FigureSource src = new MncFigures();
        List<Figure> figures = src.figures();
        Set<String> ids = figures.stream().map(Figure::id).collect(Collectors.toCollection(LinkedHashSet::new));
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
        FigureSource.Results results;
        try {
            results = src.measure(ids, pool);
        } finally {
            pool.shutdown();
        }
        Map<String, Measurement> byId = results.measurements().stream().collect(Collectors.toMap(Measurement::id, m -> m));
        out.println("MNC figures: node RTL with " + MncEnvs.PACKET_CYCLES + " firmware cycles per packet, PCI calibrated on 315/372 MB/s, "
                + "250 MB/s links, 3 us; the paper's rows with its software dispatch");
        out.println(FigureTable.HEADER);
        long pass = 0;
        long calibrated = 0;
        long explained = 0;
        long fail = 0;
        for (Figure f : figures) {
            Measurement m = byId.get(f.id());
            String row = FigureTable.row(f, new LastMeasured(m.id(), m.value(), LocalDate.now(), "./hdl run mnc-figures"), 1);
            Status st = f.status(m.value());
            if (isCalibrated(f)) {
                row = row.replace("| " + Status.EXPLAINED.text() + " |", "| calibrated |");
                calibrated++;
            } else if (st == Status.PASS) {
                pass++;
            } else if (st == Status.FAIL) {
                fail++;
            } else {
                explained++;
            }
            out.println(row);
        }
        for (Table t : results.tables()) {
            out.println();
            out.println(t.name() + ":");
            out.print(t.csv());
        }
        out.flush();
        double secs = (System.nanoTime() - t0) / 1e9;
        return new ScenarioResult(0, secs, 0, null, null, null, Map.of()).with("figures", figures.size()).with("within_tolerance", pass)
                .with("calibrated", calibrated).with("explained", explained).with("outside_tolerance", fail);
    }

    /** A row whose model value was fitted to the paper's (its explanation says so). */
    public static boolean isCalibrated(Figure f) {
        return f.check() instanceof Check.Explained e && e.why().startsWith(MncFigures.CALIBRATED);
    }
}
