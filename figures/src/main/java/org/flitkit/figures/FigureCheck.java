package org.flitkit.figures;

/**
 * How a figure's model value is judged against the paper: within a tolerance of the paper's number,
 * inside the paper's bounds, or not at all because the deviation is explained (the paper's number
 * includes parts the model does not have yet, or the paper gives none).
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

    static FigureCheck explained(String why) {
        return new Explained(why);
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

    /** Not judged: {@code why} says where the difference comes from. */
    record Explained(String why) implements FigureCheck {
        public Explained {
            Citation.requireText(why, "the explanation of the deviation");
            if (why.contains("\n")) {
                throw new IllegalArgumentException("an explanation is one paragraph, without line breaks: '" + why + "'");
            }
        }

        /** Nothing to check against: the status column says "explained" and the notes say why. */
        @Override
        public String text() {
            return "-";
        }
    }
}
