package org.flitkit.app.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.flitkit.app.Catalog;
import org.flitkit.testbench.TestbenchFailure;
import org.flitkit.figures.Figure;
import org.flitkit.figures.FigureRegistry;
import org.flitkit.figures.FigureRun;
import org.flitkit.figures.FigureTable;
import org.flitkit.figures.LastMeasured;
import org.flitkit.figures.FigureStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code hdl figures [--only NAME] [--out DIR]}: measures the papers' figures on the models and writes the
 * figure table, plots and data; prints the measured rows. Exit code 1 when a figure is out of tolerance.
 */
@Command(name = "figures", description = "Measure the papers' figures on the models; write the table (README.md), plots (PNG) and data (CSV).")
final class FiguresCommand implements Callable<Integer> {
    @ParentCommand
    Main hdl;

    @Spec
    CommandSpec spec;

    @Option(names = "--only", paramLabel = "NAME", completionCandidates = FigureNames.class, description = "A figure source (measures "
            + "all its figures) or one figure id; the other rows keep their values and dates. The sources, then the figures: "
            + "${COMPLETION-CANDIDATES}.")
    String only;

    /** What {@code --only} accepts, from the standard catalog's figure registry: the source names, then every figure id. */
    static final class FigureNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            // built when the help is drawn, not with every command line
            FigureRegistry r = Catalog.standard().figureRegistry();
            List<String> names = new ArrayList<>(r.sources().stream().map(s -> s.name()).toList());
            r.figures().forEach(f -> names.add(f.id()));
            return names.iterator();
        }
    }

    @Option(names = "--out", paramLabel = "DIR", description = "Directory of the table, plots and data (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("docs", "figures");

    @Option(names = "--jobs", paramLabel = "N", description = "Model runs at a time (default: the number of processors).")
    Integer jobs;

    @Option(names = "--sweep", paramLabel = "DIR", description = "The store of a finished 'hdl sweep' (e.g. sweeps/chpp-bw-mtu): its rows "
            + "are used instead of running their points (docs/sweeps.md).")
    List<Path> sweeps = new ArrayList<>();

    @Override
    public Integer call() {
        FigureRegistry registry = hdl.catalog().figureRegistry();
        for (Path dir : sweeps) {
            try {
                int n = SweepCatalog.merge(registry, org.flitkit.tools.sweep.SweepStore.open(dir));
                spec.commandLine().getErr().println("using " + n + " row(s) of " + dir);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new ParameterException(spec.commandLine(), "--sweep " + dir + ": " + e.getMessage());
            }
        }
        List<FigureRegistry.Selection> selections;
        try {
            selections = only == null ? registry.all() : registry.select(only);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (jobs != null && jobs < 1) {
            throw new ParameterException(spec.commandLine(), "--jobs must be at least 1, got " + jobs);
        }
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        for (FigureRegistry.Selection s : selections) {
            long slow = s.ids().stream().filter(id -> registry.figure(id).orElseThrow().slow()).count();
            err.println("measuring " + s.source().name() + ": " + s.ids().size() + " figure(s)" + (slow > 0 ? ", " + slow + " slow (minutes)" : ""));
        }
        err.flush();
        String command = "./hdl figures" + (only == null ? "" : " --only " + only) + (sweeps.isEmpty() ? "" : " --sweep");
        ExecutorService pool = Executors.newFixedThreadPool(jobs != null ? jobs : Runtime.getRuntime().availableProcessors());
        List<LastMeasured> rows;
        try {
            rows = FigureRun.run(registry, selections, out, pool, LocalDate.now(), command);
        } catch (TestbenchFailure f) {
            err.println(f.getMessage());
            err.println("hdl figures: a model run failed; nothing written");
            err.flush();
            return 1;
        } finally {
            pool.shutdownNow();
        }
        o.println(FigureTable.HEADER);
        int failed = 0;
        List<Figure> all = registry.figures();
        for (LastMeasured m : rows) {
            Figure f = registry.figure(m.id()).orElseThrow();
            o.println(FigureTable.row(f, m, FigureTable.paperNumber(all, f)));
            failed += f.status(m.value()) == FigureStatus.FAIL ? 1 : 0;
        }
        long plots = rows.stream().filter(m -> registry.figure(m.id()).orElseThrow().curve().isPresent()).count();
        o.println("wrote " + out.resolve(FigureRun.README) + ": " + rows.size() + " figure(s) measured, " + plots + " plot(s)"
                + (failed > 0 ? "; " + failed + " out of tolerance" : ""));
        o.flush();
        return failed > 0 ? 1 : 0;
    }
}
