package org.flitkit.env.nrc.switchcore;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * Open-loop load on the RTL switch core: per input an infinite source queue fed by Bernoulli packet
 * arrivals at an offered load (flits/cycle/port), destinations uniform, hotspot or a permutation, table
 * routed to exactly that output; outputs always ready, credits back after 2 cycles. Reports accepted
 * throughput (flits/cycle/port) and mean latency (creation to tail delivery, cycles) after warm-up.
 * {@code main} sweeps; tests run short points.
 */
public final class SwitchLoad {
    public enum Pattern { UNIFORM, HOTSPOT, PERMUTATION }

    public record Point(double offered, double accepted, double latency, long cycles, double simSeconds) {
        double cyclesPerSecond() {
            return cycles / simSeconds;
        }
    }

    private SwitchLoad() {
    }

    static int dest(Pattern pattern, int input, int n, Rng rng) {
        return switch (pattern) {
            case UNIFORM -> rng.nextInt(n);
            case HOTSPOT -> rng.chance(0.2) ? 0 : rng.nextInt(n);
            case PERMUTATION -> (input * 5 + 7) % n;
        };
    }

    /** A data VC, uniformly: every VC but the management VC3. */
    static int dataVc(SwitchParams p, Rng rng) {
        if (!p.hasManagementVc()) {
            return rng.nextInt(p.vcs());
        }
        int v = rng.nextInt(p.vcs() - 1);
        return v >= Th2.MANAGEMENT_VC ? v + 1 : v;
    }

    /** One load point on a fresh instance of {@code compiled}. */
    public static Point run(Simulator compiled, SwitchParams p, Pattern pattern, int len, double load, long warmup,
                     long measure, long seed) {
        int n = p.ports();
        try (Testbench<SwitchCore> tb = Testbench.create(compiled.newInstance(), RunConfig.of(seed, warmup + measure))) {
            SwitchCore d = tb.dut();
            Simulator sim = tb.sim();
            for (int i = 0; i < n; i++) {
                for (int o = 0; o < n; o++) {
                    SwitchSurroundings.writeTable(tb, i, o, 1L << o);
                }
            }
            SwitchSurroundings b = tb.add(new SwitchSurroundings(d));
            b.checkInvariants = false;
            b.keepDone = false;
            for (int o = 0; o < n; o++) {
                sim.poke(d.linkUp.get(o), true);
                b.creditDelayMin = 2;
                b.creditDelayMax[o] = 2;
            }
            Rng rng = tb.rng("sources");
            double perCycle = load / len;
            b.generator = (input, now) -> {
                if (rng.chance(perCycle) && b.queues.get(input).size() < 10_000) {
                    int o = dest(pattern, input, n, rng);
                    int vc = dataVc(p, rng);
                    b.add(input, vc, len, o, null, 0, 1L << o);
                }
            };
            tb.reset(2);
            tb.run(warmup);
            b.measureFrom = tb.cycle();
            double s0 = tb.simSeconds();
            tb.run(measure);
            double secs = tb.simSeconds() - s0;
            double accepted = (double) b.flitsOut / (measure * n);
            double lat = b.latencyCount == 0 ? Double.NaN : (double) b.latencySum / b.latencyCount;
            return new Point(load, accepted, lat, measure, secs);
        }
    }

    /** Usage: SwitchLoad [vcs] [len] [pattern] [loads...]: the 24-port core, one FIFO (vcs 1) by default. */
    public static void main(String[] args) {
        int vcs = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int len = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        Pattern pattern = args.length > 2 ? Pattern.valueOf(args[2]) : Pattern.UNIFORM;
        List<Double> loads = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            loads.add(Double.parseDouble(args[i]));
        }
        if (loads.isEmpty()) {
            loads = List.of(0.2, 0.4, 0.5, 0.55, 0.6, 0.7, 0.8, 1.0);
        }
        SwitchParams p = vcs == 1 ? SwitchParams.fifo(24, 4, 6, 8, Math.max(len, 1))
                : new SwitchParams(24, 4, 6, vcs, 8, 32, 8, 32);
        long t0 = System.nanoTime();
        Simulator compiled = Simulator.of(() -> new SwitchCore(p));
        System.out.printf("built %s in %.1f s%n", p, (System.nanoTime() - t0) / 1e9);
        System.out.printf("HOL model N=24: %.4f%n", HolModel.saturation(24, 100_000, 1));
        for (double load : loads) {
            Point pt = run(compiled, p, pattern, len, load, 1000, 5000, 1);
            System.out.printf("%s len %d vcs %d offered %.2f accepted %.4f latency %.1f (%.0f cycles/s)%n", pattern, len,
                    vcs, pt.offered(), pt.accepted(), pt.latency(), pt.cyclesPerSecond());
        }
    }
}
