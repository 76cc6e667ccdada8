package org.flitkit.figures;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The verdict on one figure, each meaning one thing: within the tolerance ({@code pass}), out of it ({@code fail}),
 * a parameter fitted on it ({@code calibrated}), the paper's number includes a mechanism the model lacks
 * ({@code not modelled}), a difference of definition only ({@code explained}), a number the paper does not report
 * ({@code beyond paper}), or no model value yet ({@code not measured}).
 */
public enum FigureStatus {
    PASS, FAIL, CALIBRATED, NOT_MODELLED, EXPLAINED, BEYOND_PAPER, NOT_MEASURED;

    /** The statuses of a figure that is not judged but carries a note saying why ({@link FigureCheck.Note}), in table order. */
    public static final Set<FigureStatus> NOTES = EnumSet.of(CALIBRATED, NOT_MODELLED, EXPLAINED, BEYOND_PAPER);

    /** As the figure table shows it: {@code pass}, {@code not modelled}, ... */
    public String text() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
