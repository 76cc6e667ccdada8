package org.flitkit.env.nrc;

import java.io.PrintStream;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.CycleTally;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.figures.Figure;
import org.flitkit.figures.FigureTable;
import org.flitkit.figures.LastMeasured;
import org.flitkit.figures.Measurement;
import org.flitkit.figures.Table;
import org.flitkit.testbench.stream.Throttle;

/**
 * {@code ./hdl run nrc-figures}: the NRC's paper figures ({@link NrcFigures}) measured and printed as the
 * rows of the figure table, with the in-chip latency of every port (each relay station checked to cost
 * one cycle each way) and the simulation speed of the integrated NRC. The PASS line's cycles are the runs and waits
 * of the NRC and of every point of the E2PROM sweep. {@code ./hdl figures --only nrc} measures the same and writes
 * docs/figures.
 */
public final class NrcFiguresScenario {
    /** The counts of the PASS line (the table above it has the figures with the paper's values). */
    public static final java.util.Map<String, String> COUNTS = ScenarioResult.legend(
            "rs_cycles", "cycles a packet's first flit takes per relay station towards the NMA",
            "to_nma_near", "cycles from the first flit in to the packet at the NMA, from the nearest port",
            "to_nma_far", "the same from the farthest port",
            "packet_cycles", "cycles one packet takes over the 20-bit relay-station path",
            "eep_read_step_ns", "E2PROM read: ns per additional byte (board timing)",
            "eep_write_step_ns", "E2PROM write: ns per additional byte (board timing)",
            "cycles_per_s", "simulation speed of the NRC under traffic on all ports, cycles per wall-clock second");

    private NrcFiguresScenario() {
    }

    public static ScenarioResult run(RunConfig cfg) {
        return run(cfg, System.out);
    }

    public static ScenarioResult run(RunConfig cfg, PrintStream out) {
        long t0 = System.nanoTime();
        CycleTally cycles = new CycleTally(cfg.progress());
        NrcFigures.Plane plane;
        ScenarioResult r;
        double speed;
        double idleSpeed;
        try (NrcEnv env = new NrcEnv(cfg.withProgress(cycles), NrcFigures.BOARD, null, Throttle.NONE)) {
            plane = NrcFigures.measurePlane(env);
            NrcPortsScenario.check(env, plane.reg());
            // simulation speed with the JIT warm: every port reading back to back, then idle
            speed = speed(env, () -> {
                for (int k = 0; k < 40; k++) {
                    for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
                        env.submit(p, Requests.read(p, 0xFFFF, env.tid(), List.of(0x008)));
                    }
                }
                env.drain(400_000);
            });
            idleSpeed = speed(env, () -> env.idle(200_000));
            env.tb.finish();
            r = env.result();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        Table eeprom;
        try {
            eeprom = NrcFigures.eepromSweep(cfg.seed(), pool, cycles, NrcFigures.EEPROM_ADDRESSES);
        } finally {
            pool.shutdown();
        }
        NrcFigures source = new NrcFigures(cfg.seed());
        List<Figure> figures = source.figures();
        List<Measurement> measured = source.all(plane, eeprom);

        out.println("NRC paper figures (core clock " + NrcFigures.BOARD.coreHz() / 1_000_000 + " MHz, board E2PROM timing)");
        out.println(FigureTable.HEADER);
        for (int i = 0; i < figures.size(); i++) {
            Figure f = figures.get(i);
            Measurement m = measured.get(i);
            out.println(FigureTable.row(f, new LastMeasured(m.id(), m.value(), LocalDate.now(), "./hdl run nrc-figures"),
                    FigureTable.paperNumber(figures, f)));
        }
        out.println("in-chip latency by port, cycles (request's first flit offered to the answer's last flit):");
        out.println("port  RS  read1  write1  read2  write2");
        NrcPortsScenario.Latencies reg = plane.reg();
        for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
            out.printf(Locale.ROOT, "%4d  %2d  %5d  %6d  %5d  %6d%n", p, RsGeometry.TH2.hopsToNma(p), reg.read1()[p], reg.write1()[p],
                    reg.read2()[p], reg.write2()[p]);
        }
        out.print("E2PROM sweep, cycles:\n" + eeprom.csv());
        out.printf(Locale.ROOT, "simulation speed of the integrated NRC: %,.0f cycles/s under traffic (all ports), %,.0f idle%n",
                speed, idleSpeed);
        out.flush();
        long[] toNma = plane.toNmaByRs();
        // the whole scenario's cycles and time: the NRC's testbench and the sweep's
        r = new ScenarioResult(cycles.total(), (System.nanoTime() - t0) / 1e9, r.buildSeconds(), r.compile(), r.vcd(), r.gtkw(), r.counts());
        return r.with("rs_cycles", (toNma[toNma.length - 1] - toNma[0]) / (toNma.length - 1)).with("to_nma_near", toNma[0])
                .with("to_nma_far", toNma[toNma.length - 1]).with("packet_cycles", plane.packetCycles())
                .with("eep_read_step_ns", Math.round(value(measured, "nrc-eep-read-step") * 1000))
                .with("eep_write_step_ns", Math.round(value(measured, "nrc-eep-write-step") * 1000)).with("cycles_per_s", Math.round(speed));
    }

    private static double value(List<Measurement> measured, String id) {
        return measured.stream().filter(m -> m.id().equals(id)).findFirst().orElseThrow().value();
    }

    /** Cycles per second of simulated time while {@code work} runs. */
    static double speed(NrcEnv env, Runnable work) {
        long c0 = env.tb.cycle();
        double s0 = env.tb.simSeconds();
        work.run();
        return (env.tb.cycle() - c0) / (env.tb.simSeconds() - s0);
    }
}
