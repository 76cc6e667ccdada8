package org.flitkit.app.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.flitkit.tools.benchmark.Benchmark;
import org.flitkit.tools.difftest.DiffRunner;
import org.flitkit.app.Catalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code hdl bench <design>}: our simulator, Verilator and Icarus side by side on the same closed
 * design: compile times, steady-state cycles/s, matching checksums and the speed ratios. System
 * benchmarks ({@code system-idle}, {@code nrc-ring}: many chips in one fabric) have no peer and print
 * their own figures.
 */
@Command(name = "bench", description = "Benchmark a closed design against Verilator and Icarus (cycles/s, checksums, ratios), or a system of chips.")
final class BenchmarkCommand implements Callable<Integer> {
    @ParentCommand
    Main hdl;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<design>", description = "Benchmark design (see 'hdl list').")
    String name;

    @Option(names = "--cycles", paramLabel = "N", description = "Cycles per timed run (default: the design's, 2000000).")
    Long cycles;

    @Option(names = "--vs", paramLabel = "SIM[,SIM]", split = ",", description = "Peers to run: verilator, iverilog (default: ${DEFAULT-VALUE}).")
    List<String> peers = List.of("verilator", "iverilog");

    @Option(names = "--hot", paramLabel = "N", description = "Also print the N chunks of generated code that run most often (activity profile).")
    int hot;

    @Option(names = "--chips", paramLabel = "N", description = "System benchmarks: number of chips (default: ${DEFAULT-VALUE}).")
    int chips = 16;

    @Option(names = "--cabinets", paramLabel = "N", description = "th2-idle, th2-request: compute cabinets, 1..143 (default: ${DEFAULT-VALUE}, the whole machine).")
    int cabinets = 143;

    @Option(names = "--hops", paramLabel = "H", description = "th2-request: NRCs the request crosses, 1..9 (default: ${DEFAULT-VALUE}).")
    int hops = 5;

    @Option(names = "--requests", paramLabel = "R", description = "nrc-ring: requests sent one at a time (default: 400).")
    Integer requests;

    @Option(names = "--threads", paramLabel = "T", description = "System benchmarks: threads evaluating chips (default: the cores, ${DEFAULT-VALUE}).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--work", paramLabel = "DIR", description = "Directory for Verilog, harnesses and builds (default: a temporary one).")
    Path work;

    @Override
    public Integer call() {
        java.util.Optional<Catalog.SystemBenchmarkEntry> system = hdl.catalog().systemBenchmark(name);
        if (system.isPresent()) {
            if (chips < 1 || threads < 1 || requests != null && requests < 1) {
                throw new ParameterException(spec.commandLine(), "--chips, --threads and --requests must be at least 1");
            }
            java.io.PrintStream out = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true);
            if (cabinets < 1 || cabinets > 143) {
                throw new ParameterException(spec.commandLine(), "--cabinets must be 1..143, got " + cabinets);
            }
            if (hops < 1 || hops > 9) {
                throw new ParameterException(spec.commandLine(), "--hops must be 1..9 (the longest path crosses 9 NRCs), got " + hops);
            }
            return system.get().run().run(chips, cycles, requests, cabinets, hops, threads, out);
        }
        Catalog.BenchmarkEntry entry = hdl.catalog().benchmark(name).orElseThrow(() -> new ParameterException(spec.commandLine(),
                "unknown benchmark design '" + name + "'; available: "
                        + java.util.stream.Stream.concat(hdl.catalog().benchmarks().stream().map(Catalog.BenchmarkEntry::name),
                                hdl.catalog().systemBenchmarks().stream().map(Catalog.SystemBenchmarkEntry::name)).collect(Collectors.joining(", "))));
        for (String p : peers) {
            if (!List.of("verilator", "iverilog").contains(p)) {
                throw new ParameterException(spec.commandLine(), "unknown peer '" + p + "' for --vs; use verilator, iverilog");
            }
        }
        long n = cycles != null ? cycles : entry.defaultCycles();
        if (n < 1000) {
            throw new ParameterException(spec.commandLine(), "--cycles must be at least 1000, got " + n);
        }
        Path dir = work != null ? work : DiffRunner.tempWork("flitkit-bench-");
        java.io.PrintStream out = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true);
        out.println("machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.version") + "; work: " + dir);
        if (hot < 0) {
            throw new ParameterException(spec.commandLine(), "--hot must be >= 0, got " + hot);
        }
        List<Benchmark.Result> results = new Benchmark(dir, out).run(name, entry.top(), n, peers);
        if (hot > 0) {
            Benchmark.printHotChunks(entry.top(), hot, out);
        }
        return Benchmark.checksumsAgree(results) ? 0 : 1;
    }
}
