package org.flitkit.tools.sweep;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a store's unfinished points on an executor, then once more those that failed; what still has no row is
 * reported with its log path (docs/sweeps.md, "Executors").
 */
public final class SweepRun {
    /** A point that failed twice: why (if it could say) and where its log is. */
    public record Failure(Point point, String error, java.nio.file.Path log) {
        @Override
        public String toString() {
            return "point " + point.index() + " (" + point.kind() + " " + point.params() + " seed " + point.seed() + ") failed: "
                    + error.strip() + "; log: " + log;
        }
    }

    /** What a run did: points it ran (first attempt), points it retried, and those still failing. */
    public record Outcome(int ran, int retried, List<Failure> failures) {
        public Outcome {
            failures = List.copyOf(failures);
        }
    }

    private SweepRun() {
    }

    public static Outcome run(SweepStore store, SweepExecutor executor) {
        List<Point> pending = store.pending();
        if (!pending.isEmpty()) {
            executor.run(store, pending);
        }
        List<Point> failed = store.pending();
        if (!failed.isEmpty()) {
            executor.run(store, failed);
        }
        List<Failure> out = new ArrayList<>();
        for (Point p : store.pending()) {
            out.add(new Failure(p, store.error(p.index()).orElse("no error recorded (the task ended before it could write one)"),
                    store.log(p.index())));
        }
        return new Outcome(pending.size(), failed.size(), out);
    }
}
