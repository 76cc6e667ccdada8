package org.flitkit.figures;

import java.util.List;

/**
 * What one run of a model gave for one figure: its value in the figure's unit and, for a curve figure,
 * the model's series. Produced by a {@link FigureSource}, never typed in.
 */
public record Measurement(String id, double value, List<Series> series) {
    public Measurement {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("figure " + id + ": the model value is not finite: " + value);
        }
        series = List.copyOf(series);
        for (Series s : series) {
            if (s.kind() != Series.Kind.MODEL) {
                throw new IllegalArgumentException("figure " + id + ": series '" + s.name() + "' is the paper's; a measurement holds the model's");
            }
        }
    }

    /** A single value. */
    public static Measurement of(String id, double value) {
        return new Measurement(id, value, List.of());
    }
}
