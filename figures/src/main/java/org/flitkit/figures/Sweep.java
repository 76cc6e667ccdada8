package org.flitkit.figures;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * A parameter sweep: one model run per point, each giving a row of numbers. The points run on the given
 * {@link Executor} (a thread pool to run them in parallel, {@code Runnable::run} for one after another)
 * and the rows come back in point order whatever the order they finish in.
 */
public final class Sweep<P> {
    private final String name;
    private final List<String> columns;
    private final Function<P, double[]> point;

    private Sweep(String name, List<String> columns, Function<P, double[]> point) {
        this.name = name;
        this.columns = List.copyOf(columns);
        this.point = point;
    }

    /** A sweep whose table is {@code name} with {@code columns}; {@code point} runs one point and returns its row. */
    public static <P> Sweep<P> of(String name, List<String> columns, Function<P, double[]> point) {
        return new Sweep<>(name, columns, point);
    }

    /** Runs every point on {@code executor}; a point that throws ends the sweep with its exception. */
    public Table run(List<P> points, Executor executor) {
        List<CompletableFuture<double[]>> futures = new ArrayList<>();
        for (P p : points) {
            futures.add(CompletableFuture.supplyAsync(() -> point.apply(p), executor));
        }
        List<double[]> rows = new ArrayList<>();
        for (CompletableFuture<double[]> f : futures) {
            rows.add(join(f));
        }
        return new Table(name, columns, rows);
    }

    /** The value of {@code f}, rethrowing what the task threw (not wrapped). */
    public static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
