package org.flitkit.figures;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * A figure source whose figures each need a set of sweep points: every point the selected figures need runs once
 * ({@link #run}, in parallel on the executor), then each figure's value comes from the points. Subclasses define
 * their figures with {@link #define} and may add the raw tables of the points ({@link #tables}).
 *
 * @param <K> a sweep point (a record: equal points run once)
 * @param <R> what one point's run gives
 */
public abstract class PointFigures<K, R> implements FigureSource {
    /** A figure, the points it needs, and how its value comes from them. */
    private record Def<K, R>(Figure figure, Set<K> needs, Function<Map<K, R>, Measurement> measure) {
    }

    private final List<Def<K, R>> defs = new ArrayList<>();
    private final Map<K, R> known = new java.util.concurrent.ConcurrentHashMap<>();

    /** Adds a figure (in table order) that needs the points {@code needs}. */
    protected final void define(Figure figure, Set<K> needs, Function<Map<K, R>, Measurement> measure) {
        // the points keep the caller's order (Set.copyOf's order changes from run to run, and so would the CSV rows)
        defs.add(new Def<>(figure, Collections.unmodifiableSet(new LinkedHashSet<>(needs)), measure));
    }

    /** Uses {@code result} for {@code point} instead of running it: a point measured elsewhere (a sweep's row, docs/sweeps.md). */
    protected final void know(K point, R result) {
        known.put(point, result);
    }

    /** Runs one sweep point. */
    protected abstract R run(K point);

    /** The raw tables to write beside the figures, from the points run for {@code ids}; none by default. */
    protected List<Table> tables(Set<String> ids, Map<K, R> points) {
        return List.of();
    }

    @Override
    public final List<Figure> figures() {
        return defs.stream().map(Def::figure).toList();
    }

    @Override
    public final Results measure(Set<String> ids, Executor executor) {
        List<Def<K, R>> wanted = select(defs, Def::figure, ids);
        Map<K, R> points = runPoints(wanted, Def::needs, k -> known.containsKey(k) ? known.get(k) : run(k), executor);
        return new Results(wanted.stream().map(d -> d.measure().apply(points)).toList(), tables(ids, points));
    }
}
