package org.flitkit.tools.benchmark;

import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.tools.difftest.VerilatorSim;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.tools.synth.VerilogTools;

/**
 * Side-by-side speed of our simulator, Verilator and Icarus on one closed design (no inputs besides
 * clock and reset) with a 64-bit {@code checksum} output: compile time, steady-state cycles/s after
 * warm-up, and the checksum each reached after the same number of cycles.
 */
public final class Benchmark {
    /** One simulator's numbers. {@code cycles} is how many cycles its checksum covers. */
    public record Result(String sim, long compileMillis, double cyclesPerSecond, long cycles, BigInteger checksum, String note) {
    }

    private final PrintStream log;
    private final Path work;

    public Benchmark(Path work, PrintStream log) {
        this.work = work;
        this.log = log;
    }

    /** Runs ours and each named peer ({@code verilator}, {@code iverilog}) and prints the table and ratios. */
    public List<Result> run(String name, Supplier<? extends Module> maker, long cycles, List<String> peers) {
        List<Result> results = new ArrayList<>();
        Result ours = ours(maker, cycles);
        results.add(ours);
        VerilogEmitter.Result v = emit(maker);
        List<Path> files = VerilogEmitter.write(v.files(), work.resolve("rtl"));
        for (String peer : peers) {
            switch (peer) {
                case "verilator" -> results.add(verilator(v.topModule(), files, cycles, 3));
                case "iverilog", "icarus" -> {
                    long n = Math.max(2_000, Math.min(cycles, 50_000));
                    Result ic = icarus(v.topModule(), files, n);
                    results.add(ic);
                    results.add(oursAt(maker, n));
                }
                default -> throw new IllegalArgumentException("unknown peer '" + peer + "' (use verilator, iverilog)");
            }
        }
        print(name, results);
        return results;
    }

    /**
     * Our checksum and Verilator's after {@code cycles} cycles, one untimed run each: the CI-sized check
     * that a benchmark design means the same in both simulators (speed is not measured).
     */
    public List<Result> verilatorChecksums(Supplier<? extends Module> maker, long cycles) {
        VerilogEmitter.Result v = emit(maker);
        List<Path> files = VerilogEmitter.write(v.files(), work.resolve("rtl"));
        return List.of(oursAt(maker, cycles), verilator(v.topModule(), files, cycles, 1));
    }

    /**
     * The {@code top} chunks of generated code that run most often, over 20,000 single-stepped cycles after
     * 100,000 cycles (past the NRC's power-up load): which module instances keep the design busy.
     */
    public static void printHotChunks(Supplier<? extends Module> maker, int top, PrintStream out) {
        Simulator sim = Simulator.of(Circuit.elaborate(maker));
        sim.reset(1);
        sim.step(100_000);
        List<Simulator.ChunkProfile> p = sim.profileChunks(20_000);
        double total = p.stream().mapToDouble(Simulator.ChunkProfile::runsPerCycle).sum();
        out.printf(Locale.ROOT, "chunks: %d, run per cycle: %.1f (cycles 100,000..120,000 after reset); hottest:%n", p.size(), total);
        out.println("chunk  runs/cycle  source chars  module instances");
        for (Simulator.ChunkProfile c : p.subList(0, Math.min(top, p.size()))) {
            out.printf(Locale.ROOT, "%5d  %10.3f  %12d  %s%n", c.chunk(), c.runsPerCycle(), c.sourceChars(), c.modules());
        }
    }

    private static VerilogEmitter.Result emit(Supplier<? extends Module> maker) {
        return new VerilogEmitter().emitResult(Circuit.elaborate(maker));
    }

    private static Bits checksumOf(Circuit c) {
        for (Bits b : c.netlist().outputs()) {
            if ("checksum".equals(b.name())) {
                if (b.width() > 64) {
                    break;
                }
                return b;
            }
        }
        throw new HdlException("benchmark design " + c.top().definitionName() + " needs an output 'checksum' of at most 64 bits");
    }

    private Result ours(Supplier<? extends Module> maker, long cycles) {
        long t0 = System.nanoTime();
        Circuit c = Circuit.elaborate(maker);
        Simulator sim = Simulator.of(c);
        long compile = (System.nanoTime() - t0) / 1_000_000;
        Bits sum = checksumOf(c);
        // cold: the first cycles, while HotSpot compiles the generated code and the variants are compiled
        long cold = Math.min(cycles, 200_000);
        long t1 = System.nanoTime();
        sim.reset(1);
        sim.step(cold - 1);
        double coldRate = cold / ((System.nanoTime() - t1) / 1e9);
        sim.compileVariants();
        // warm-up until HotSpot has compiled the generated code: a large design's methods take its compiler tens of
        // seconds on 2 cores, and a run timed before that measures the compiler, not the simulator
        long warmStart = System.nanoTime();
        long runs = warmUp(sim, Math.min(cycles, 1_000_000));
        double warmSeconds = (System.nanoTime() - warmStart) / 1e9;
        double best = 0;
        BigInteger checksum = null;
        for (int rep = 0; rep < 3; rep++) {
            Simulator s = Simulator.of(c);
            long t2 = System.nanoTime();
            s.reset(1);
            s.step(cycles - 1);
            double rate = cycles / ((System.nanoTime() - t2) / 1e9);
            best = Math.max(best, rate);
            checksum = s.peekBig(sum);
        }
        return new Result("flitkit", compile, best, cycles, checksum,
                String.format(Locale.ROOT, "cold %s cycles/s; warm-up %.1f s (%d runs) until HotSpot compiled nothing for %.0f s; %s",
                        fmt(coldRate), warmSeconds, runs, QUIET_JIT_NANOS / 1e9, sim.stats()));
    }

    /** HotSpot compiled nothing for this long: the generated code has reached its steady state. */
    static final long QUIET_JIT_NANOS = 2_000_000_000L;
    /** The warm-up gives up here (and the timed runs then say what they say). */
    static final long WARM_UP_LIMIT_NANOS = 300_000_000_000L;

    /**
     * Runs of {@code run} cycles until HotSpot has compiled nothing for {@link #QUIET_JIT_NANOS} (at least 2 s of
     * running in any case); returns the runs made. JMH warms up by iterations; this watches the compiler itself, since
     * how long it needs grows with the design (the 24-port switch core: about 30 s of C2 time).
     */
    static long warmUp(Simulator sim, long run) {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        boolean watch = jit != null && jit.isCompilationTimeMonitoringSupported();
        long start = System.nanoTime();
        long lastCompile = start;
        long compiled = watch ? jit.getTotalCompilationTime() : 0;
        long runs = 0;
        while (true) {
            sim.step(run);
            runs++;
            long now = System.nanoTime();
            if (watch && jit.getTotalCompilationTime() != compiled) {
                compiled = jit.getTotalCompilationTime();
                lastCompile = now;
            }
            boolean quiet = now - lastCompile >= QUIET_JIT_NANOS && now - start >= 2_000_000_000L;
            if (quiet || now - start >= WARM_UP_LIMIT_NANOS) {
                return runs;
            }
        }
    }

    private static Result oursAt(Supplier<? extends Module> maker, long cycles) {
        Circuit c = Circuit.elaborate(maker);
        Simulator s = Simulator.of(c);
        s.reset(1);
        s.step(cycles - 1);
        return new Result("flitkit@" + cycles, 0, 0, cycles, s.peekBig(checksumOf(c)), "checksum only, untimed");
    }

    private Result verilator(String top, List<Path> files, long cycles, int reps) {
        Path dir = work.resolve("verilator");
        Path harness = dir.resolve("bench.cpp");
        dir.toFile().mkdirs();
        VerilatorSim.write(harness, """
                #include "V%1$s.h"
                #include "verilated.h"
                #include <chrono>
                #include <cstdio>
                #include <cstdlib>
                int main(int argc, char** argv) {
                    long n = atol(argv[1]);
                    V%1$s* top = new V%1$s;
                    top->reset = 1; top->clk = 0; top->eval(); top->clk = 1; top->eval(); top->reset = 0;
                    auto t0 = std::chrono::steady_clock::now();
                    for (long i = 1; i < n; i++) { top->clk = 0; top->eval(); top->clk = 1; top->eval(); }
                    top->clk = 0; top->eval();
                    auto t1 = std::chrono::steady_clock::now();
                    long long ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
                    printf("%%llx %%lld\\n", (unsigned long long) top->checksum, ns);
                    top->final();
                    delete top;
                    return 0;
                }
                """.formatted(top));
        long t0 = System.nanoTime();
        Path exe = VerilatorSim.build(dir, files, top, harness, List.of("-O3"), "-O2");
        long compile = (System.nanoTime() - t0) / 1_000_000;
        double best = 0;
        BigInteger checksum = null;
        for (int rep = 0; rep < reps; rep++) {
            VerilogTools.Result r = VerilogTools.run(dir, Duration.ofMinutes(10), List.of(exe.toString(), Long.toString(cycles)));
            if (!r.ok()) {
                throw new IllegalStateException("Verilator benchmark failed: " + r);
            }
            String[] parts = r.output().trim().split("\\s+");
            checksum = new BigInteger(parts[0], 16);
            best = Math.max(best, (cycles - 1) / (Long.parseLong(parts[1]) / 1e9));
        }
        return new Result("verilator", compile, best, cycles, checksum, "verilator -O3 --x-assign fast --x-initial fast, g++ -O2");
    }

    private Result icarus(String top, List<Path> files, long cycles) {
        Path dir = work.resolve("iverilog");
        dir.toFile().mkdirs();
        Path tb = dir.resolve("bench_tb.v");
        VerilatorSim.write(tb, """
                `timescale 1ns/1ns
                module bench_tb;
                    reg clk = 0;
                    reg reset = 1;
                    wire [63:0] checksum;
                    %s dut (.clk(clk), .reset(reset), .checksum(checksum));
                    initial begin
                        #1 clk = 1; #1 clk = 0; reset = 0;
                        repeat (%d) begin #1 clk = 1; #1 clk = 0; end
                        #1 $display("@ %%h", checksum);
                        $finish;
                    end
                endmodule
                """.formatted(top, cycles - 1));
        List<Path> all = new ArrayList<>(files);
        all.add(tb);
        Path vvp = dir.resolve("bench.vvp");
        long t0 = System.nanoTime();
        VerilogTools.Result c = VerilogTools.iverilogCompile(all, "bench_tb", vvp);
        long compile = (System.nanoTime() - t0) / 1_000_000;
        if (!c.ok()) {
            throw new IllegalStateException("iverilog failed: " + c);
        }
        long t1 = System.nanoTime();
        VerilogTools.Result r = VerilogTools.vvp(vvp, Duration.ofMinutes(30));
        double secs = (System.nanoTime() - t1) / 1e9;
        if (!r.ok()) {
            throw new IllegalStateException("vvp failed: " + r);
        }
        BigInteger checksum = null;
        for (String l : r.output().split("\n")) {
            if (l.startsWith("@ ")) {
                checksum = new BigInteger(l.substring(2).trim(), 16);
            }
        }
        return new Result("iverilog", compile, cycles / secs, cycles, checksum, "vvp wall time including start-up");
    }

    /** True when every pair of results over the same number of cycles reached the same checksum. */
    public static boolean checksumsAgree(List<Result> rs) {
        for (Result r : rs) {
            for (Result o : rs) {
                if (r.cycles() == o.cycles() && !r.checksum().equals(o.checksum())) {
                    return false;
                }
            }
        }
        return true;
    }

    static String fmt(double x) {
        return String.format(Locale.ROOT, "%,.0f", x);
    }

    private void print(String name, List<Result> rs) {
        log.println("bench " + name);
        log.printf(Locale.ROOT, "%-18s %12s %16s %12s  %s%n", "simulator", "compile_ms", "cycles_per_s", "cycles", "checksum");
        for (Result r : rs) {
            log.printf(Locale.ROOT, "%-18s %12s %16s %12d  0x%s%s%n", r.sim(), r.compileMillis() == 0 ? "-" : fmt(r.compileMillis()),
                    r.cyclesPerSecond() == 0 ? "-" : fmt(r.cyclesPerSecond()), r.cycles(), r.checksum().toString(16),
                    r.note().isEmpty() ? "" : "  (" + r.note() + ")");
        }
        Result ours = rs.get(0);
        log.println(checksumsAgree(rs) ? "checksums match" : "checksums DIFFER");
        for (Result r : rs) {
            if (r.sim().equals("verilator") || r.sim().equals("iverilog")) {
                log.printf(Locale.ROOT, "ratio_vs_%s=%.2f%n", r.sim(), ours.cyclesPerSecond() / r.cyclesPerSecond());
            }
        }
    }
}
