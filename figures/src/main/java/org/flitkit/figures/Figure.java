package org.flitkit.figures;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One figure of a paper that a model reproduces: its id, what it is, the paper's value with its unit and
 * where the paper gives it, and how the model's value is judged ({@link FigureCheck}). A curve figure also has a
 * {@link Curve}. A slow figure takes minutes of simulation: the tests check its definition, not its value.
 * The model's value is never part of the definition; a {@link FigureSource} measures it.
 */
public record Figure(String id, String title, String unit, Citation citation, PaperValue paper, FigureCheck check, Optional<Curve> curve,
        boolean slow) {
    private static final double EPSILON = 1e-9;

    public Figure {
        if (id == null || !id.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException("figure id '" + id + "' must be lower-case letters, digits and '-'");
        }
        Citation.requireText(title, "title of figure " + id);
        Citation.requireText(unit, "unit of figure " + id);
        for (String s : new String[] {title, unit}) {
            if (s.contains("|") || s.contains("\n")) {
                throw new IllegalArgumentException("figure " + id + ": '" + s + "' cannot contain '|' or a line break (it goes into a table)");
            }
        }
        Objects.requireNonNull(citation, "figure " + id + " needs a citation");
        Objects.requireNonNull(paper, "figure " + id + " needs the paper's value (PaperValue.none() if the paper gives none)");
        Objects.requireNonNull(check, "figure " + id + " needs a check");
        Objects.requireNonNull(curve);
        if (!(check instanceof FigureCheck.Note)) {
            if (paper instanceof PaperValue.None) {
                throw new IllegalArgumentException("figure " + id + ": the paper gives no value, so the row needs a note (beyond the paper, explained, not modelled)");
            }
            if (paper instanceof PaperValue.Point && !(check instanceof FigureCheck.Tolerance)) {
                throw new IllegalArgumentException("figure " + id + ": a paper value is judged with a tolerance, not " + check.text());
            }
            if (paper instanceof PaperValue.Range && !(check instanceof FigureCheck.InRange)) {
                throw new IllegalArgumentException("figure " + id + ": paper bounds are judged 'in range', not with " + check.text());
            }
        }
        if (check instanceof FigureCheck.Note n && n.status() == FigureStatus.CALIBRATED && !(paper instanceof PaperValue.Point)) {
            throw new IllegalArgumentException("figure " + id + ": a calibrated figure is fitted to a paper number, not to " + paper.text());
        }
    }

    public static Builder builder(String id, String title) {
        return new Builder(id, title);
    }

    /** (model - paper) / |paper| in percent; empty unless the paper gives a number. */
    public OptionalDouble deviationPercent(double model) {
        return paper instanceof PaperValue.Point p ? OptionalDouble.of((model - p.value()) / Math.abs(p.value()) * 100)
                : OptionalDouble.empty();
    }

    public FigureStatus status(double model) {
        if (check instanceof FigureCheck.Note n) {
            return n.status();
        }
        if (check instanceof FigureCheck.Tolerance t) {
            return Math.abs(deviationPercent(model).getAsDouble()) <= t.percent() + EPSILON ? FigureStatus.PASS : FigureStatus.FAIL;
        }
        return ((PaperValue.Range) paper).contains(model) ? FigureStatus.PASS : FigureStatus.FAIL;
    }

    /** Fluent construction; the check defaults to {@link FigureCheck#DEFAULT} for a paper number and to in-range for paper bounds. */
    public static final class Builder {
        private final String id;
        private final String title;
        private String unit;
        private Citation citation;
        private PaperValue paper;
        private FigureCheck check;
        private Curve curve;
        private boolean slow;

        private Builder(String id, String title) {
            this.id = id;
            this.title = title;
        }

        public Builder from(Citation c) {
            citation = c;
            return this;
        }

        /** The paper's value and its unit. */
        public Builder paper(PaperValue v, String u) {
            paper = v;
            unit = u;
            return this;
        }

        public Builder tolerance(double percent) {
            check = FigureCheck.tolerance(percent);
            return this;
        }

        /** Only a difference of definition, said in one sentence. */
        public Builder explained(String difference) {
            check = FigureCheck.explained(difference);
            return this;
        }

        /** The paper's number includes a mechanism the model lacks: name it. */
        public Builder notModelled(String mechanism) {
            check = FigureCheck.notModelled(mechanism);
            return this;
        }

        /** A parameter was fitted on this figure: which, and from what. */
        public Builder calibrated(String parameter) {
            check = FigureCheck.calibrated(parameter);
            return this;
        }

        /** The paper reports no such number. */
        public Builder beyondPaper(String why) {
            check = FigureCheck.beyondPaper(why);
            return this;
        }

        public Builder curve(Curve c) {
            curve = c;
            return this;
        }

        public Builder slow() {
            slow = true;
            return this;
        }

        public Figure build() {
            FigureCheck c = check;
            if (c == null) {
                c = paper instanceof PaperValue.Range ? FigureCheck.inRange() : FigureCheck.DEFAULT;
            }
            return new Figure(id, title, unit, citation, paper, c, Optional.ofNullable(curve), slow);
        }
    }
}
