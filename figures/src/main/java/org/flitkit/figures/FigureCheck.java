package org.flitkit.figures;

/**
 * How a figure's model value is judged against the paper: within a tolerance of the paper's number, inside the
 * paper's bounds, or not judged, with a {@link Note} that says which of four reasons holds: the difference is one of
 * definition only (explained), the paper's number includes a mechanism the model lacks (not modelled), a parameter
 * was fitted on this figure (calibrated), or the paper reports no such number (beyond paper).
 */
public sealed interface FigureCheck {

    /** The project's default: the model within 10 % of the paper. */
    FigureCheck DEFAULT = tolerance(10);

    static FigureCheck tolerance(double percent) {
        return new Tolerance(percent);
    }

    static FigureCheck inRange() {
        return InRange.INSTANCE;
    }

    /** Only a difference of definition: {@code difference} says, in one sentence, how the two quantities differ. */
    static FigureCheck explained(String difference) {
        return new Note(FigureStatus.EXPLAINED, difference);
    }

    /** The paper's number includes {@code mechanism}, which the model does not have. */
    static FigureCheck notModelled(String mechanism) {
        return new Note(FigureStatus.NOT_MODELLED, mechanism);
    }

    /** A parameter was fitted on this figure: {@code parameter} says which and from what; the row validates nothing. */
    static FigureCheck calibrated(String parameter) {
        return new Note(FigureStatus.CALIBRATED, parameter);
    }

    /** The paper reports no such number (a quantity it does not give, a point beyond its measurements, a what-if). */
    static FigureCheck beyondPaper(String why) {
        return new Note(FigureStatus.BEYOND_PAPER, why);
    }

    /** As the figure table's "tolerance" column shows it. */
    String text();

    /** |model - paper| / |paper| at most {@code percent} %. */
    record Tolerance(double percent) implements FigureCheck {
        public Tolerance {
            if (!(percent >= 0) || Double.isInfinite(percent)) {
                throw new IllegalArgumentException("tolerance must be a finite percentage >= 0, got " + percent);
            }
        }

        @Override
        public String text() {
            return "±" + Numbers.plain(percent) + " %";
        }
    }

    /** The model value strictly inside the paper's {@link PaperValue.Range}. */
    enum InRange implements FigureCheck {
        INSTANCE;

        @Override
        public String text() {
            return "in range";
        }
    }

    /**
     * Not judged: {@code status} is the kind of reason (calibrated, not modelled, explained, beyond paper), shown in the
     * status column; {@code why} is the reason, one paragraph, in the notes below the table.
     */
    record Note(FigureStatus status, String why) implements FigureCheck {
        public Note {
            if (!FigureStatus.NOTES.contains(status)) {
                throw new IllegalArgumentException("a note is calibrated, not modelled, explained or beyond paper, not " + status.text());
            }
            Citation.requireText(why, "the reason of a " + status.text() + " figure");
            if (why.contains("\n")) {
                throw new IllegalArgumentException("the reason of a " + status.text() + " figure is one paragraph, without line breaks: '" + why + "'");
            }
        }

        /** Nothing to check against. */
        @Override
        public String text() {
            return "-";
        }
    }
}
