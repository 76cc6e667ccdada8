package org.flitkit.figures;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The figures of one chip (NRC, cHPP, XUD, NIC, ...): their definitions, and the model runs that measure
 * them. Registered in the application's catalog; {@code ./hdl figures --only NAME} runs one.
 */
public interface FigureSource {
    /** Short lower-case name, the {@code --only} argument: {@code nrc}. */
    String name();

    /** The definitions, in table order. Cheap: builds no model. */
    List<Figure> figures();

    /** The numbers these figures depend on that the RTL does not produce, each with its origin ({@link Parameter}). */
    default List<Parameter> parameters() {
        return List.of();
    }

    /**
     * Runs the model for the figures {@code ids} (a non-empty subset of {@link #figures()}), and only the
     * runs those need; independent runs and sweep points go to {@code executor}. Returns one measurement
     * per id, plus the tables of the sweeps it ran.
     */
    Results measure(Set<String> ids, Executor executor);

    /**
     * The entries of {@code defs} whose figure is one of {@code ids}, in table order, for {@link #measure};
     * IllegalArgumentException (naming this source's figures) if an id is not one of them.
     */
    default <D> List<D> select(List<D> defs, Function<D, Figure> figure, Set<String> ids) {
        List<D> wanted = defs.stream().filter(d -> ids.contains(figure.apply(d).id())).toList();
        if (wanted.size() != ids.size()) {
            throw new IllegalArgumentException("not " + name() + " figures: " + ids + "; " + name() + " figures: "
                    + figures().stream().map(Figure::id).toList());
        }
        return wanted;
    }

    /**
     * Runs {@code run} once for every sweep point (key) the {@code wanted} definitions need, the points in
     * parallel on {@code executor}; the results in the order the points were first needed.
     */
    default <D, K, R> Map<K, R> runPoints(List<D> wanted, Function<D, Set<K>> needs, Function<K, R> run, Executor executor) {
        Set<K> keys = new LinkedHashSet<>();
        wanted.forEach(d -> keys.addAll(needs.apply(d)));
        Map<K, CompletableFuture<R>> runs = new LinkedHashMap<>();
        for (K k : keys) {
            runs.put(k, CompletableFuture.supplyAsync(() -> run.apply(k), executor));
        }
        Map<K, R> points = new LinkedHashMap<>();
        runs.forEach((k, f) -> points.put(k, Sweep.join(f)));
        return points;
    }

    /** A source's measurements and the raw tables of its sweeps (written next to the figures as CSV). */
    record Results(List<Measurement> measurements, List<Table> tables) {
        public Results {
            measurements = List.copyOf(measurements);
            tables = List.copyOf(tables);
        }
    }
}
