package org.flitkit.hdl;

import java.util.List;

/** A design error found while building or elaborating a circuit; the message names signals and source lines. */
public class HdlException extends RuntimeException {
    private final List<String> problems;

    public HdlException(String message) {
        this(List.of(message));
    }

    public HdlException(List<String> problems) {
        super(problems.size() == 1 ? problems.get(0)
                : problems.size() + " design errors:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem on its own, in the order found. */
    public List<String> problems() {
        return problems;
    }
}
