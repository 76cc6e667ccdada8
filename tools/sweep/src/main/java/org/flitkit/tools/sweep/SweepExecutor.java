package org.flitkit.tools.sweep;

import java.util.List;

/**
 * Runs points of a store and returns when each has finished or failed: a finished point has its row in the store, a
 * failed one its log (and, if it got that far, its error). {@link SweepRun} decides what to retry. docs/sweeps.md, "Executors".
 */
public interface SweepExecutor {
    /** {@code local}, {@code slurm}: how the command line names it. */
    String name();

    void run(SweepStore store, List<Point> points);
}
