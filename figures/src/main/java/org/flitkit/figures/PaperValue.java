package org.flitkit.figures;

/**
 * What the paper says a figure's value is: a number ({@link Point}), only bounds ({@link Range}, open:
 * "longer than one, less than twice"), or nothing ({@link None}: the paper describes the mechanism
 * but gives no number, and the figure documents the model's choice).
 */
public sealed interface PaperValue {

    /** The paper's number. */
    static PaperValue of(double value) {
        return new Point(value);
    }

    /** Strictly between {@code above} and {@code below}. */
    static PaperValue between(double above, double below) {
        return new Range(above, below);
    }

    /** Strictly less than {@code below}. */
    static PaperValue below(double below) {
        return new Range(Double.NEGATIVE_INFINITY, below);
    }

    /** Strictly more than {@code above}. */
    static PaperValue above(double above) {
        return new Range(above, Double.POSITIVE_INFINITY);
    }

    static PaperValue none() {
        return None.INSTANCE;
    }

    /** As the figure table shows it. */
    String text();

    record Point(double value) implements PaperValue {
        public Point {
            if (!Double.isFinite(value) || value == 0) {
                throw new IllegalArgumentException("a paper value must be finite and non-zero (deviation is relative to it), got " + value);
            }
        }

        @Override
        public String text() {
            return Numbers.plain(value);
        }
    }

    record Range(double above, double below) implements PaperValue {
        public Range {
            if (Double.isNaN(above) || Double.isNaN(below) || !(above < below) || above == Double.POSITIVE_INFINITY
                    || below == Double.NEGATIVE_INFINITY || (Double.isInfinite(above) && Double.isInfinite(below))) {
                throw new IllegalArgumentException("a paper range needs at least one finite bound and above < below, got ("
                        + above + ", " + below + ")");
            }
        }

        /** True when {@code v} lies strictly inside. */
        public boolean contains(double v) {
            return v > above && v < below;
        }

        @Override
        public String text() {
            if (Double.isInfinite(above)) {
                return "< " + Numbers.plain(below);
            }
            if (Double.isInfinite(below)) {
                return "> " + Numbers.plain(above);
            }
            return "> " + Numbers.plain(above) + ", < " + Numbers.plain(below);
        }
    }

    /** The paper gives no number for this figure. */
    enum None implements PaperValue {
        INSTANCE;

        @Override
        public String text() {
            return "-";
        }
    }
}
