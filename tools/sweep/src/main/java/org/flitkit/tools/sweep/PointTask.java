package org.flitkit.tools.sweep;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Runs one point of a store and records the outcome there: its row, or its error. What {@code ./hdl sweep-point} does
 * on a cluster node and what {@link LocalExecutor} does on each of its threads (docs/sweeps.md, "Points").
 */
public final class PointTask {
    private final PointRunner runner;
    private final String version;

    /** Points run by {@code runner}; their rows record {@code version}. */
    public PointTask(PointRunner runner, String version) {
        this.runner = runner;
        this.version = version;
    }

    /** Runs point {@code index} with its log appended to {@code log}; true when it left a row. */
    public boolean run(SweepStore store, int index, PrintStream log) {
        Point p = store.point(index);
        log.println("point " + p.index() + " of sweep " + p.sweep() + ": " + p.kind() + " " + p.params() + " seed " + p.seed()
                + ", FlitKit " + version);
        log.flush();
        try {
            PointRunner.Result r = runner.run(p, log);
            Row row = store.writeRow(p, r, version);
            log.println("row: " + row.columns() + " = " + java.util.Arrays.toString(row.values()));
            return true;
        } catch (RuntimeException | Error e) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            log.println("point " + p.index() + " failed: " + trace);
            store.writeError(p.index(), e + "\n");
            return false;
        } finally {
            log.flush();
        }
    }

    /** Runs point {@code index} with its log appended to the store's log file of that point. */
    public boolean run(SweepStore store, int index) {
        try (PrintStream log = new PrintStream(new FileOutputStream(store.log(index).toFile(), true), true, StandardCharsets.UTF_8)) {
            return run(store, index, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the log of point " + index + " in " + store.dir(), e);
        }
    }
}
