package org.flitkit.tools.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The default executor: every point in this JVM, {@code threads} at a time, each logging to its own log file in the
 * store. Needs no setup (docs/sweeps.md, "Executors").
 */
public final class LocalExecutor implements SweepExecutor {
    private final PointTask task;
    private final int threads;

    public LocalExecutor(PointTask task, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("a local sweep needs at least 1 thread, got " + threads);
        }
        this.task = task;
        this.threads = threads;
    }

    /** All processors of this machine. */
    public LocalExecutor(PointTask task) {
        this(task, Runtime.getRuntime().availableProcessors());
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public void run(SweepStore store, List<Point> points) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, points.size())));
        try {
            List<Future<Boolean>> runs = new ArrayList<>();
            for (Point p : points) {
                runs.add(pool.submit(() -> task.run(store, p.index())));
            }
            for (Future<Boolean> f : runs) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    // the task records a point's failure itself; this is the store failing under it
                    throw new IllegalStateException("sweep " + store.manifest().sweep() + ": " + e.getCause().getMessage(), e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("sweep " + store.manifest().sweep() + " interrupted", e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
