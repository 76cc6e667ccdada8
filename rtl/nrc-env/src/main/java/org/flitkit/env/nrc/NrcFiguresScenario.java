package org.flitkit.env.nrc;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.stream.Throttle;

/**
 * The figures of the NRC management plane, measured and printed: cycles for a packet to cross one relay
 * station and to reach the NMA from the nearest and farthest port; in-chip register read/write latency
 * by port; E2PROM latency per extra address at the board clock next to the paper's +~150 us (read) and
 * +~3000 us (write); simulation speed of the integrated NRC. Spec: 20-th2-management.md, "Measured
 * figures"; results kept in docs/th2-nrc.md.
 */
public final class NrcFiguresScenario {
    /** E2PROM writes measured at board timing: 1..WRITE_BYTES bytes (3 ms each, so few). */
    static final int WRITE_BYTES = 3;
    static final int READ_BYTES = 6;

    private NrcFiguresScenario() {
    }

    /** Cycle at which the whole packet is handed to the NMA (nmp_unpacker output fires). */
    static final class NmaEntry extends Component {
        private final Nrc dut;
        long last = -1;

        NmaEntry(Nrc dut) {
            super("nma_entry");
            this.dut = dut;
        }

        @Override
        protected void sample() {
            if (sim().peekBool(dut.plane.toNma.valid) && sim().peekBool(dut.plane.toNma.ready)) {
                last = cycle();
            }
        }
    }

    public static ScenarioResult run(RunConfig cfg) {
        return run(cfg, System.out, EepParams.DEFAULT);
    }

    public static ScenarioResult run(RunConfig cfg, PrintStream out, EepParams board) {
        long toNmaNear;
        long toNmaFar;
        NrcPortsScenario.Latencies reg;
        ScenarioResult r;
        double speed;
        double idleSpeed;
        try (NrcEnv env = new NrcEnv(cfg, EepParams.FAST, null, Throttle.NONE)) {
            NmaEntry entry = env.tb.add(new NmaEntry(env.dut));
            toNmaNear = toNma(env, entry, RsGeometry.LAST_COL);
            toNmaFar = toNma(env, entry, 0);
            reg = NrcPortsScenario.measure(env, env.tb.rng("values"));
            NrcPortsScenario.check(env, reg);
            env.tb.finish();
            r = env.result();
        }
        NrcEepromScenario.Latencies eepRead;
        NrcEepromScenario.Latencies eepWrite;
        try (NrcEnv env = new NrcEnv(Testbench.create(() -> new Nrc(board, null), RunConfig.of(cfg.seed(), 0)), null, Throttle.NONE)) {
            eepRead = NrcEepromScenario.measure(env, env.tb.rng("eeprom"), RsGeometry.LAST_COL, READ_BYTES, WRITE_BYTES);
            eepWrite = eepRead;
            // simulation speed with the JIT warm: every port reading back to back, then idle
            speed = speed(env, () -> {
                for (int k = 0; k < 40; k++) {
                    for (int p = 0; p < RsGeometry.PORTS; p++) {
                        env.submit(p, Requests.read(p, 0xFFFF, env.tid(), List.of(0x008)));
                    }
                }
                env.drain(400_000);
            });
            idleSpeed = speed(env, () -> env.idle(200_000));
            env.tb.finish();
        }
        double us = 1e6 / board.coreHz();
        double readStep = slope(eepRead.read()) * us;
        double writeStep = slope(eepWrite.write()) * us;

        out.println("NRC management plane figures (core clock " + board.coreHz() / 1_000_000 + " MHz)");
        out.printf(Locale.ROOT, "relay station crossing            %d cycle(s) per RS%n", (toNmaFar - toNmaNear) / (RsGeometry.COLS - 1));
        out.printf(Locale.ROOT, "request to the NMA, nearest port   %d cycles (1 RS; 40 beats of 20 bits + pipeline)%n", toNmaNear);
        out.printf(Locale.ROOT, "request to the NMA, farthest port  %d cycles (6 RS)%n", toNmaFar);
        out.println("in-chip latency by port, cycles (request's first flit offered to the answer's last flit):");
        out.println("port  RS  read1  write1  read2  write2");
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            out.printf(Locale.ROOT, "%4d  %2d  %5d  %6d  %5d  %6d%n", p, RsGeometry.hopsToNma(p), reg.read1()[p], reg.write1()[p],
                    reg.read2()[p], reg.write2()[p]);
        }
        out.printf(Locale.ROOT, "register read, nearest/farthest port: %.2f / %.2f us%n", reg.read1()[5] * us, reg.read1()[0] * us);
        out.printf(Locale.ROOT, "E2PROM read  1..%d bytes, cycles: %s%n", READ_BYTES, java.util.Arrays.toString(eepRead.read()));
        out.printf(Locale.ROOT, "E2PROM write 1..%d bytes, cycles: %s%n", WRITE_BYTES,
                java.util.Arrays.toString(eepWrite.write()));
        out.printf(Locale.ROOT, "E2PROM per extra address: read +%.1f us (paper +~150 us), write +%.1f us (paper +~3000 us)%n",
                readStep, writeStep);
        out.printf(Locale.ROOT, "simulation speed of the integrated NRC: %,.0f cycles/s under traffic (all ports), %,.0f idle%n",
                speed, idleSpeed);
        out.flush();
        return r.with("rs_cycles", (toNmaFar - toNmaNear) / (RsGeometry.COLS - 1)).with("to_nma_near", toNmaNear)
                .with("to_nma_far", toNmaFar).with("eep_read_step_ns", Math.round(readStep * 1000))
                .with("eep_write_step_ns", Math.round(writeStep * 1000)).with("cycles_per_s", Math.round(speed));
    }

    /** Cycles per second of simulated time while {@code work} runs. */
    static double speed(NrcEnv env, Runnable work) {
        long c0 = env.tb.cycle();
        double s0 = env.tb.simSeconds();
        work.run();
        return (env.tb.cycle() - c0) / (env.tb.simSeconds() - s0);
    }

    /** Cycles from a lone request's first flit offered at {@code port} to its whole packet entering the NMA. */
    static long toNma(NrcEnv env, NmaEntry entry, int port) {
        long t0 = env.tb.cycle();
        env.submit(port, Requests.read(port, 0xFFFF, env.tid(), List.of(0x008)));
        env.drain(5_000);
        return entry.last - t0;
    }

    /** Least-squares slope of latency against byte count (index + 1). */
    static double slope(long[] y) {
        int n = y.length;
        double mx = (n + 1) / 2.0;
        double my = 0;
        for (long v : y) {
            my += v;
        }
        my /= n;
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < n; i++) {
            sxy += (i + 1 - mx) * (y[i] - my);
            sxx += (i + 1 - mx) * (i + 1 - mx);
        }
        return sxy / sxx;
    }
}
