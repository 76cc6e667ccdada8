package org.flitkit.figures;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * A {@link FigureSource} whose figures all come from one measurement run of type {@code R}: each figure is defined
 * with the function that reads its value (and curve) from the run; measuring any of them runs the model once.
 */
public abstract class OneRunFigures<R> implements FigureSource {
    private record Def<R>(Figure figure, Function<R, Measurement> measure) {
    }

    private final List<Def<R>> defs = new ArrayList<>();

    /** Defines figure {@code f}, measured from a run by {@code m}. */
    protected final void def(Figure f, Function<R, Measurement> m) {
        defs.add(new Def<>(f, m));
    }

    /** Runs the model once (on the executor's thread). */
    protected abstract R run();

    /** The data tables of a run (written as CSV beside the figure table). */
    protected abstract List<Table> tables(R run);

    @Override
    public final List<Figure> figures() {
        return defs.stream().map(Def::figure).toList();
    }

    @Override
    public final Results measure(Set<String> ids, Executor executor) {
        List<Def<R>> wanted = select(defs, Def::figure, ids);
        R run = Sweep.join(CompletableFuture.supplyAsync(this::run, executor));
        return new Results(wanted.stream().map(d -> d.measure().apply(run)).toList(), tables(run));
    }

    /** Every figure from a finished run. */
    public final List<Measurement> all(R run) {
        return defs.stream().map(d -> d.measure().apply(run)).toList();
    }
}
