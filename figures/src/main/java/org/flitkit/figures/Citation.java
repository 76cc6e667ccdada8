package org.flitkit.figures;

/**
 * Where a figure comes from: the paper, cited by its title, the place in it (section, figure or table
 * number), and a short form of the title for the legends of plots ("Karol et al. 1987"). Never a file
 * path: the docs must make sense to a reader without this repository.
 */
public record Citation(String paper, String where, String shortTitle) {
    public Citation {
        requireText(paper, "paper title");
        requireText(where, "place in the paper (section, figure or table)");
        requireText(shortTitle, "short title of the paper");
        for (String s : new String[] {paper, where, shortTitle}) {
            if (s.contains("/") || s.contains("\\") || s.matches(".*\\.(txt|md|pdf|html?)\\b.*")) {
                throw new IllegalArgumentException("cite the paper by its title and section, not a file: '" + s + "'");
            }
            if (s.contains("|") || s.contains("\n")) {
                throw new IllegalArgumentException("a citation cannot contain '|' or a line break (it goes into a table): '" + s + "'");
            }
        }
    }

    /** A paper whose short title is its title. */
    public Citation(String paper, String where) {
        this(paper, where, paper);
    }

    /** This paper at another place. */
    public Citation at(String place) {
        return new Citation(paper, place, shortTitle);
    }

    /** The short title and the place, as a plot's legend cites them: {@code Karol et al. 1987, Section III, Table I}. */
    public String label() {
        return shortTitle + ", " + where;
    }

    static void requireText(String s, String what) {
        if (s == null || s.isBlank()) {
            throw new IllegalArgumentException(what + " is missing");
        }
    }
}
