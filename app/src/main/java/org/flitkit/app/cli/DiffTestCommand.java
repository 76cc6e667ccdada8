package org.flitkit.app.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.flitkit.tools.difftest.DiffRunner;
import org.flitkit.tools.difftest.RandomProgram;
import org.flitkit.tools.difftest.ReferenceSim;
import org.flitkit.app.Catalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code hdl difftest}: random designs (and the project's own RTL) simulated by us and by Verilator
 * or Icarus on the emitted Verilog, every output compared every cycle; a failure is shrunk and printed.
 */
@Command(name = "difftest", description = "Differential test against Verilator or Icarus; last line: designs=N cycles=M mismatches=K.")
final class DiffTestCommand implements Callable<Integer> {
    @ParentCommand
    Main hdl;

    @Spec
    CommandSpec spec;

    @Option(names = "--designs", paramLabel = "N", description = "Random designs (default: ${DEFAULT-VALUE}).")
    int designs = 50;

    @Option(names = "--cycles", paramLabel = "M", description = "Cycles per design (default: ${DEFAULT-VALUE}).")
    int cycles = 400;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the random designs and stimulus (default: ${DEFAULT-VALUE}).")
    long seed = 1;

    @Option(names = "--vs", paramLabel = "SIM", description = "Reference simulator: verilator or iverilog (default: ${DEFAULT-VALUE}).")
    String vs = "verilator";

    @Option(names = "--no-rtl", description = "Only random designs (by default the project's RTL designs run too).")
    boolean noRtl;

    @Option(names = "--work", paramLabel = "DIR", description = "Directory for Verilog and builds (default: a temporary one).")
    Path work;

    @picocli.CommandLine.Mixin
    ExecutorOptions executor;

    @Option(names = "--shard", paramLabel = "N", description = "With --executor: random designs per sweep point (default: ${DEFAULT-VALUE}).")
    int shard = 250;

    @Option(names = "--store", paramLabel = "DIR", description = "With --executor: the sweep's directory (default: sweeps/difftest-N-SEED-SIM).")
    Path store;

    @Override
    public Integer call() {
        if (designs < 0 || cycles < 2) {
            throw new ParameterException(spec.commandLine(), "--designs must be >= 0 and --cycles >= 2");
        }
        ReferenceSim ref;
        try {
            ref = ReferenceSim.byName(vs);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (executor.executor != null) {
            return sharded();
        }
        List<DiffRunner.Design> all = new ArrayList<>(DiffRunner.randomDesigns(designs, seed, RandomProgram.Shape.standard().forReference(ref.name())));
        if (!noRtl) {
            for (Catalog.DesignEntry d : hdl.catalog().designs()) {
                all.add(new DiffRunner.Design(d.name(), d.top(), null));
            }
        }
        java.io.PrintStream out = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true);
        DiffRunner.Report r;
        try {
            r = new DiffRunner(ref, work != null ? work : DiffRunner.tempWork("flitkit-difftest-"), out).run(all, cycles, seed);
        } catch (org.flitkit.hdl.HdlException e) {
            // every random design must elaborate: one that does not is a bug of the generator, named with its seed
            throw CliError.failure("difftest: a design of seed " + seed + " did not elaborate (a bug of the design generator;"
                    + " please report it with this line): " + e.getMessage());
        }
        out.println(r.summary());
        return r.clean() ? 0 : 1;
    }

    /** The designs as seed-range points of a sweep (docs/sweeps.md, "Difftest"): every mismatch with its shrunk design, then one summary line. */
    private Integer sharded() {
        if (shard < 1 || work != null) {
            throw new ParameterException(spec.commandLine(), shard < 1 ? "--shard must be at least 1, got " + shard
                    : "--work is for a difftest in this JVM; with --executor each point works in its own temporary directory");
        }
        SweepCatalog.Named sweep = SweepCatalog.difftest(designs, shard, cycles, seed, vs, !noRtl);
        Path dir = store != null ? store : Path.of("sweeps", "difftest-" + designs + "-" + seed + "-" + vs + (noRtl ? "-no-rtl" : ""));
        var s = SweepCommand.run(spec, executor, sweep, dir, hdl);
        if (s == null) {
            return 1;
        }
        var rows = s.rows();
        java.io.PrintWriter o = spec.commandLine().getOut();
        for (var r : rows) {
            r.notes().forEach(o::println);
        }
        SweepCatalog.DifftestTotals totals = SweepCatalog.DifftestTotals.of(rows);
        o.println(totals.summary());
        o.flush();
        return totals.clean() ? 0 : 1;
    }
}
