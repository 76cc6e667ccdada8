package org.flitkit.figures;

/**
 * How a figure's model value is judged against the paper: within a tolerance of the paper's number, inside the
 * paper's bounds, or not judged, with a {@link Note} that says which of four reasons holds: the difference is one of
 * definition only ({@link Explained}), the paper's number includes a mechanism the model lacks ({@link NotModelled}),
 * a parameter was fitted on this figure ({@link Calibrated}), or the paper reports no such number ({@link BeyondPaper}).
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
        return new Explained(difference);
    }

    /** The paper's number includes {@code mechanism}, which the model does not have. */
    static FigureCheck notModelled(String mechanism) {
        return new NotModelled(mechanism);
    }

    /** A parameter was fitted on this figure: {@code parameter} says which and from what; the row validates nothing. */
    static FigureCheck calibrated(String parameter) {
        return new Calibrated(parameter);
    }

    /** The paper reports no such number (a quantity it does not give, a point beyond its measurements, a what-if). */
    static FigureCheck beyondPaper(String why) {
        return new BeyondPaper(why);
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

    /** Not judged: the status column names the reason's kind and the notes below the table say the reason. */
    sealed interface Note extends FigureCheck {
        String why();

        FigureStatus status();

        /** Nothing to check against. */
        @Override
        default String text() {
            return "-";
        }

        static String require(String why, String what) {
            Citation.requireText(why, what);
            if (why.contains("\n")) {
                throw new IllegalArgumentException(what + " is one paragraph, without line breaks: '" + why + "'");
            }
            return why;
        }
    }

    record Explained(String why) implements Note {
        public Explained {
            Note.require(why, "the difference of definition");
        }

        @Override
        public FigureStatus status() {
            return FigureStatus.EXPLAINED;
        }
    }

    record NotModelled(String why) implements Note {
        public NotModelled {
            Note.require(why, "the mechanism the model lacks");
        }

        @Override
        public FigureStatus status() {
            return FigureStatus.NOT_MODELLED;
        }
    }

    record Calibrated(String why) implements Note {
        public Calibrated {
            Note.require(why, "the fitted parameter");
        }

        @Override
        public FigureStatus status() {
            return FigureStatus.CALIBRATED;
        }
    }

    record BeyondPaper(String why) implements Note {
        public BeyondPaper {
            Note.require(why, "what the paper does not report");
        }

        @Override
        public FigureStatus status() {
            return FigureStatus.BEYOND_PAPER;
        }
    }
}
