package org.flitkit.env.nrc.system;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.flitkit.env.nrc.Requests;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.Th2;
import org.flitkit.fabric.Fabric;

/**
 * The system benchmarks of {@code ./hdl bench}: an {@link NrcRing} of N chips left idle
 * ({@code system-idle}: build cost, memory, and what an idle chip-cycle costs asleep and awake), and the
 * same ring answering one management request at a time ({@code nrc-ring}: wall time per simulated cycle
 * against a single NRC answering the same request stream). Figures are printed as {@code key=value}.
 */
public final class NrcSystemBenchmark {
    /** Cable latency of the benchmark rings, in cycles. */
    public static final int LATENCY = 4;
    private static final long SEED = 0x5EED;

    private NrcSystemBenchmark() {
    }

    /** Builds N idle NRCs, runs {@code cycles} cycles; returns 0 (failures throw). */
    public static int idle(int chips, long cycles, int threads, PrintStream out) {
        header(out, "system-idle", chips, threads);
        try (NrcRing ring = build(chips, threads, false, out)) {
            // the chips that answered their CHIP_ID write last are still settling
            ring.fabric.run(1_000);
            long evals0 = ring.fabric.chipEvaluations();
            long processed0 = ring.fabric.processedCycles();
            long t0 = System.nanoTime();
            ring.fabric.run(cycles);
            long dt = System.nanoTime() - t0;
            out.printf(Locale.ROOT, "idle_cycles=%d wall_ms=%.1f ns_per_cycle=%.3g ns_per_chip_cycle=%.3g chip_evaluations=%d processed_cycles=%d%n",
                    cycles, dt / 1e6, (double) dt / cycles, (double) dt / cycles / chips, ring.fabric.chipEvaluations() - evals0,
                    ring.fabric.processedCycles() - processed0);
        }
        awakeIdleCost(Math.min(chips, 16), threads, out);
        return 0;
    }

    /**
     * What an idle chip-cycle costs when it is evaluated (the exhaustive mode: every chip, every cycle),
     * on a ring of {@code chips}: the price sleeping avoids.
     */
    private static void awakeIdleCost(int chips, int threads, PrintStream out) {
        // the big ring just closed is gigabytes of garbage: collected here, not by a pause inside the timing
        System.gc();
        try (NrcRing ring = new NrcRing(new Fabric().exhaustive(true).threads(threads, 8), chips, LATENCY)) {
            long cycles = 20_000;
            ring.fabric.run(cycles / 4);
            long t0 = System.nanoTime();
            ring.fabric.run(cycles);
            long dt = System.nanoTime() - t0;
            out.printf(Locale.ROOT, "awake_idle: chips=%d cycles=%d ns_per_chip_cycle=%.1f (every chip evaluated every cycle)%n", chips, cycles,
                    (double) dt / cycles / chips);
        }
    }

    /** One request at a time to random chips of an N-chip ring, then the same stream on one NRC. */
    public static int ring(int chips, int requests, int threads, PrintStream out) {
        header(out, "nrc-ring", chips, threads);
        List<ManagementPacket> stream = requests(requests);
        int[] targets = targets(chips, requests);
        // the passes of the two alternate, so that both see the same machine load
        Timing[] best = new Timing[2];
        long[] evaluations = new long[2];
        try (NrcRing many = build(chips, threads, false, out); NrcRing one = build(1, 1, false, null)) {
            NrcRing[] rings = {many, one};
            int[][] to = {targets, new int[requests]};
            for (int rep = -1; rep < 3; rep++) {
                for (int i = 0; i < 2; i++) {
                    if (rep < 0) {
                        // warm-up
                        pass(rings[i], stream.subList(0, Math.min(requests, 50)), to[i]);
                        continue;
                    }
                    long c0 = rings[i].fabric.now();
                    long e0 = rings[i].fabric.chipEvaluations();
                    long t0 = System.nanoTime();
                    pass(rings[i], stream, to[i]);
                    Timing t = new Timing(rings[i].fabric.now() - c0, System.nanoTime() - t0, requests);
                    if (best[i] == null || t.nanos() < best[i].nanos()) {
                        best[i] = t;
                        evaluations[i] = rings[i].fabric.chipEvaluations() - e0;
                    }
                }
            }
            for (int i = 0; i < 2; i++) {
                Timing b = best[i];
                out.printf(Locale.ROOT, "%s: chips=%d requests=%d cycles=%d wall_ms=%.1f ns_per_cycle=%.1f us_per_request=%.1f chip_evaluations=%d answers_checked=%d (best of 3)%n",
                        i == 0 ? "system" : "single", rings[i].chips.size(), requests, b.cycles(), b.nanos() / 1e6, b.nsPerCycle(), b.nsPerRequest() / 1e3,
                        evaluations[i], rings[i].answers().size());
            }
        }
        Timing many = best[0];
        Timing one = best[1];
        out.printf(Locale.ROOT, "ratio_wall_per_cycle=%.2f ratio_wall_per_request=%.2f (the %d-chip system against one NRC; goal <= 3)%n",
                many.nsPerCycle() / one.nsPerCycle(), many.nsPerRequest() / one.nsPerRequest(), chips);
        return 0;
    }

    /** The simulated work of one pass of the request stream over a fresh ring: counts only, the same on every machine. */
    public record Counts(int chips, int requests, long cycles, long answers, long chipEvaluations) {
    }

    /**
     * The request stream of {@code nrc-ring} sent once, one request at a time, to the same random chips of a fresh
     * {@code chips}-chip ring: the cycles, answers and chip evaluations it took (a sweep point's row, docs/sweeps.md).
     */
    public static Counts counts(int chips, int requests, int threads) {
        try (NrcRing ring = build(chips, threads, false, null)) {
            long c0 = ring.fabric.now();
            long e0 = ring.fabric.chipEvaluations();
            int a0 = ring.answers().size();
            pass(ring, requests(requests), targets(chips, requests));
            return new Counts(chips, requests, ring.fabric.now() - c0, ring.answers().size() - a0, ring.fabric.chipEvaluations() - e0);
        }
    }

    /** The chip each request goes to: random, within the management packets' hop limit. */
    private static int[] targets(int chips, int requests) {
        SplittableRandom rng = new SplittableRandom(SEED);
        int reach = Math.min(chips, Th2.MAX_HOPS + 1);
        int[] targets = new int[requests];
        for (int r = 0; r < requests; r++) {
            targets[r] = rng.nextInt(reach);
        }
        return targets;
    }

    private record Timing(long cycles, long nanos, int requests) {
        double nsPerCycle() {
            return (double) nanos / cycles;
        }

        double nsPerRequest() {
            return (double) nanos / requests;
        }
    }

    private static void pass(NrcRing ring, List<ManagementPacket> stream, int[] targets) {
        for (int r = 0; r < stream.size(); r++) {
            ring.send(targets[r], stream.get(r));
            ring.fabric.runUntil(ring::answered, 100_000);
        }
    }

    /** Alternating register reads (CHIP_ID, SCRATCH0) and SCRATCH0 writes of random values. */
    static List<ManagementPacket> requests(int n) {
        SplittableRandom rng = new SplittableRandom(SEED + 1);
        List<ManagementPacket> out = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            int tid = 1 + r % 0xFFFE;
            out.add(r % 2 == 0 ? Requests.read(NrcRing.RING_PORT, 0, tid, List.of(0x000, 0x008))
                    : Requests.write(NrcRing.RING_PORT, 0, tid, List.of(0x008), List.of(rng.nextLong())));
        }
        return out;
    }

    private static void header(PrintStream out, String name, int chips, int threads) {
        out.println("bench " + name + " --chips " + chips + " (" + Runtime.getRuntime().availableProcessors() + " cores, " + threads + " thread"
                + (threads == 1 ? "" : "s") + ", max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MB, " + System.getProperty("java.vm.name")
                + " " + System.getProperty("java.version") + ")");
    }

    private static NrcRing build(int chips, int threads, boolean exhaustive, PrintStream out) {
        NrcRing ring = new NrcRing(new Fabric().exhaustive(exhaustive).threads(threads, 8), chips, LATENCY);
        if (out != null) {
            NrcRing.Build b = ring.build;
            Runtime rt = Runtime.getRuntime();
            System.gc();
            long heap = rt.totalMemory() - rt.freeMemory();
            out.printf(Locale.ROOT, "build: chips=%d total_ms=%d (elaborate+codegen+compile %d, boot %d ms = %d cycles, fork %d, wire %d, configure CHIP_IDs %d ms = %d cycles)%n",
                    chips, b.totalMillis(), b.compileMillis(), b.bootMillis(), b.bootCycles(), b.forkMillis(), b.wireMillis(), b.configMillis(),
                    b.configCycles());
            out.printf(Locale.ROOT, "memory: heap_after_build_mb=%.1f state_bytes_per_chip=%d shared_memory_bytes_per_chip=%d heap_per_chip_kb=%.1f"
                    + " chip_evaluations_in_build=%d%n", heap / 1048576.0, b.stateBytesPerChip(), b.sharedBytesPerChip(), heap / 1024.0 / chips,
                    ring.fabric.chipEvaluations());
        }
        return ring;
    }
}
