package org.flitkit.figures;

import java.util.Locale;

/** The verdict on one figure: within the paper's tolerance, explained deviation, out of tolerance, or no model value yet. */
public enum FigureStatus {
    PASS, EXPLAINED, FAIL, NOT_MEASURED;

    /** As the figure table shows it: {@code pass}, {@code explained}, {@code fail}, {@code not measured}. */
    public String text() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
