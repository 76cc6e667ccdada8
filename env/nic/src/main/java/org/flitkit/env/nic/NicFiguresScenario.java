package org.flitkit.env.nic;


import java.io.PrintStream;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import org.flitkit.env.nic.fabric.FabricEnv;
import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.figures.Figure;
import org.flitkit.figures.FigureTable;
import org.flitkit.figures.LastMeasured;
import org.flitkit.figures.Measurement;

/**
 * {@code ./hdl run nic-figures}: the end-to-end management latencies ({@link NicFigures}) measured on host,
 * PCIe, the whole NIC, cables and a chain of whole NRCs and printed as figure-table rows, model beside paper, then
 * where the cycles of a register read go. {@code ./hdl figures --only nic} measures the same and writes docs/figures.
 */
public final class NicFiguresScenario {
    /** The counts of the PASS line: mean end-to-end latencies in cycles, times 100 to keep two decimals. */
    public static final java.util.Map<String, String> COUNTS = ScenarioResult.legend(
            "read1_cycles_x100", "mean latency of a 1-register read, host API to host API, cycles x100",
            "write1_cycles_x100", "mean latency of a 1-register write, cycles x100",
            "read2_cycles_x100", "mean latency of a 2-register read, cycles x100");

    private NicFiguresScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        return run(cfg, System.out);
    }

    public static ScenarioResult run(RunConfig cfg, PrintStream out) {
        NicFigures.Run run;
        ScenarioResult r;
        try (FabricEnv env = NicFigures.env(cfg.seed())) {
            run = NicFigures.measure(env, NicFigures.N);
            env.tb.finish();
            r = env.tb.result();
        }
        NicFigures source = new NicFigures(cfg.seed(), NicFigures.N);
        List<Figure> figures = source.figures();
        List<Measurement> measured = source.all(run);
        out.println("NIC end-to-end figures: host API -> PCIe -> NIC -> " + Th2Machine.CABLE_LATENCY + "-cycle cables -> whole NRCs of "
                + NicFigures.CHAIN.name() + " and back, N = " + NicFigures.N + " per kind to the first NRC, " + NicFigures.N_PER_HOP
                + " per hop count, " + String.format(Locale.ROOT, "%.2f", LinkFrame.clockHz() / 1e6) + " MHz, host software time 0");
        out.println(FigureTable.HEADER);
        for (int i = 0; i < figures.size(); i++) {
            Figure f = figures.get(i);
            Measurement m = measured.get(i);
            out.println(FigureTable.row(f, new LastMeasured(m.id(), m.value(), LocalDate.now(), "./hdl run nic-figures"),
                    FigureTable.paperNumber(figures, f)));
        }
        out.printf(Locale.ROOT, "mean latency, cycles: read 1 register %.2f, write 1 register %.2f, read 2 registers %.2f%n",
                run.read1(), run.write1(), run.read2());
        out.printf(Locale.ROOT, "read by hops (cycles): %s; per hop %.2f cycles, processing %.2f cycles%n",
                java.util.Arrays.stream(run.readByHops()).mapToObj(v -> String.format(Locale.ROOT, "%.2f", v)).toList(), run.perHop(), run.processing());
        out.println("where a register read's cycles go (mean, the NRC on the server's cable):");
        NicFigures.Breakdown b = run.breakdown();
        for (int i = 0; i < b.parts().length; i++) {
            out.printf(Locale.ROOT, "  %7.2f cycles %6.3f us  %s%n", b.cycles()[i], NicFigures.micros(b.cycles()[i]), b.parts()[i]);
        }
        out.printf(Locale.ROOT, "  = %.2f cycles %.3f us%n", b.total(), NicFigures.micros(b.total()));
        out.flush();
        return r.with("read1_cycles_x100", Math.round(run.read1() * 100)).with("write1_cycles_x100", Math.round(run.write1() * 100))
                .with("read2_cycles_x100", Math.round(run.read2() * 100));
    }
}
