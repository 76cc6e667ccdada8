package org.flitkit.figures;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Every figure of every chip's {@link FigureSource}, by id, in source order: names are checked unique
 * (figure ids across sources, and distinct from source names, so {@code --only NAME} is never ambiguous).
 */
public final class FigureRegistry {

    /** Figures of one source to measure together. */
    public record Selection(FigureSource source, Set<String> ids) {
        public Selection {
            ids = Set.copyOf(ids);
        }
    }

    private final List<FigureSource> sources;
    private final Map<String, Figure> figures = new LinkedHashMap<>();
    private final Map<String, FigureSource> sourceOf = new LinkedHashMap<>();

    public FigureRegistry(List<FigureSource> sources) {
        this.sources = List.copyOf(sources);
        Set<String> names = new LinkedHashSet<>();
        for (FigureSource s : sources) {
            if (!s.name().matches("[a-z0-9][a-z0-9-]*") || !names.add(s.name())) {
                throw new IllegalArgumentException("figure source name '" + s.name() + "' must be unique, lower-case letters, digits and '-'");
            }
        }
        for (FigureSource s : sources) {
            for (Figure f : s.figures()) {
                if (names.contains(f.id())) {
                    throw new IllegalArgumentException("figure id '" + f.id() + "' is also a source name");
                }
                if (figures.putIfAbsent(f.id(), f) != null) {
                    throw new IllegalArgumentException("two figures with id '" + f.id() + "' (sources " + sourceOf.get(f.id()).name() + " and "
                            + s.name() + ")");
                }
                sourceOf.put(f.id(), s);
            }
        }
    }

    public List<FigureSource> sources() {
        return sources;
    }

    /** All figures, in source order. */
    public List<Figure> figures() {
        return List.copyOf(figures.values());
    }

    public Optional<Figure> figure(String id) {
        return Optional.ofNullable(figures.get(id));
    }

    /** Every figure, grouped by source. */
    public List<Selection> all() {
        return where(f -> true);
    }

    /** The figures that are not slow, grouped by source (what the tests re-measure). */
    public List<Selection> fast() {
        return where(f -> !f.slow());
    }

    /** {@code name} is a source (all its figures) or a figure id (that one figure). */
    public List<Selection> select(String name) {
        for (FigureSource s : sources) {
            if (s.name().equals(name)) {
                return where(f -> sourceOf.get(f.id()) == s);
            }
        }
        if (figures.containsKey(name)) {
            return where(f -> f.id().equals(name));
        }
        throw new IllegalArgumentException("no figure source or figure named '" + name + "'; sources: "
                + sources.stream().map(FigureSource::name).collect(Collectors.joining(", ")) + "; figures: " + String.join(", ", figures.keySet()));
    }

    private List<Selection> where(Predicate<Figure> keep) {
        List<Selection> out = new ArrayList<>();
        for (FigureSource s : sources) {
            Set<String> ids = new LinkedHashSet<>();
            for (Figure f : figures.values()) {
                if (sourceOf.get(f.id()) == s && keep.test(f)) {
                    ids.add(f.id());
                }
            }
            if (!ids.isEmpty()) {
                out.add(new Selection(s, ids));
            }
        }
        return out;
    }
}
