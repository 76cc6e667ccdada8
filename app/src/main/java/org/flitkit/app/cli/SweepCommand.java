package org.flitkit.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.Callable;
import org.flitkit.tools.sweep.PointTask;
import org.flitkit.tools.sweep.SweepRun;
import org.flitkit.tools.sweep.SweepStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code hdl sweep NAME [--executor local|slurm] [--store DIR]}: runs a named sweep's unfinished points, retries failed
 * ones once, and prints its rows as CSV (also written to {@code DIR/rows.csv}). docs/sweeps.md.
 */
@Command(name = "sweep", description = "Run a named sweep's points locally or on Slurm; print its rows (CSV). Finished points are not rerun.")
final class SweepCommand implements Callable<Integer> {
    @ParentCommand
    Main hdl;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", completionCandidates = Names.class, description = "The sweep: ${COMPLETION-CANDIDATES}.")
    String name;

    @Option(names = "--store", paramLabel = "DIR", description = "The sweep's directory: points, rows, logs (default: sweeps/NAME).")
    Path store;

    @Mixin
    ExecutorOptions executor;

    /** The sweep names, for the help. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return SweepCatalog.named().stream().map(SweepCatalog.Named::name).iterator();
        }
    }

    @Override
    public Integer call() {
        SweepCatalog.Named sweep;
        try {
            sweep = SweepCatalog.named(name);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        Path dir = store != null ? store : Path.of("sweeps", name);
        SweepStore s = run(spec, executor, sweep, dir, hdl);
        if (s == null) {
            return 1;
        }
        PrintWriter o = spec.commandLine().getOut();
        o.print(s.csv());
        o.flush();
        return 0;
    }

    /**
     * Runs {@code sweep} in {@code dir} on the chosen executor, tells stderr what it did and every point that failed
     * (with its log); returns the store when every point has its row, else null.
     */
    static SweepStore run(CommandSpec spec, ExecutorOptions executor, SweepCatalog.Named sweep, Path dir, Main hdl) {
        PrintWriter err = spec.commandLine().getErr();
        // the options first: a bad one must not leave a store behind
        var exec = executor.create(new PointTask(SweepCatalog.runner(hdl.catalog()), SweepCatalog.version()));
        SweepStore s;
        try {
            s = SweepStore.prepare(dir, sweep.name(), SweepCatalog.version(), sweep.points());
        } catch (IllegalArgumentException e) {
            throw CliError.usage(e.getMessage());
        }
        int done = sweep.points().size() - s.pending().size();
        err.println("sweep " + sweep.name() + ": " + sweep.points().size() + " point(s), " + done + " already done; running the others on "
                + exec.name() + " (store " + s.dir() + ")");
        err.flush();
        SweepRun.Outcome o;
        try {
            o = SweepRun.run(s, exec);
        } catch (IllegalStateException e) {
            throw CliError.failure("sweep " + sweep.name() + ": " + e.getMessage());
        }
        err.println("sweep " + sweep.name() + ": ran " + o.ran() + " point(s), retried " + o.retried() + ", " + o.failures().size() + " failed");
        o.failures().forEach(f -> err.println("sweep " + sweep.name() + ": " + f));
        err.flush();
        if (!o.failures().isEmpty()) {
            return null;
        }
        String csv = s.csv();
        try {
            Files.writeString(s.dir().resolve("rows.csv"), csv, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw CliError.failure("cannot write " + s.dir().resolve("rows.csv") + ": " + e.getMessage());
        }
        return s;
    }
}
