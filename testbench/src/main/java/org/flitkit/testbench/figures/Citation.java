package org.flitkit.testbench.figures;

/**
 * Where a figure comes from: the paper, cited by its title, and the place in it (section, figure or
 * table number). Never a file path: the docs must make sense to a reader without this repository.
 */
public record Citation(String paper, String where) {
    public Citation {
        requireText(paper, "paper title");
        requireText(where, "place in the paper (section, figure or table)");
        for (String s : new String[] {paper, where}) {
            if (s.contains("/") || s.contains("\\") || s.matches(".*\\.(txt|md|pdf|html?)\\b.*")) {
                throw new IllegalArgumentException("cite the paper by its title and section, not a file: '" + s + "'");
            }
            if (s.contains("|") || s.contains("\n")) {
                throw new IllegalArgumentException("a citation cannot contain '|' or a line break (it goes into a table): '" + s + "'");
            }
        }
    }

    /** This paper at another place. */
    public Citation at(String place) {
        return new Citation(paper, place);
    }

    static void requireText(String s, String what) {
        if (s == null || s.isBlank()) {
            throw new IllegalArgumentException(what + " is missing");
        }
    }
}
