package org.flitkit.tools.difftest;

/**
 * The reference simulator could not build or run a design (a tool error, not a difference in values).
 * {@link DiffRunner} reruns a failed batch one design at a time and reports each design the tool
 * refuses, so one refused design does not hide the others' results.
 */
public class ReferenceFailure extends IllegalStateException {
    public ReferenceFailure(String message) {
        super(message);
    }

    /** The tool's first error line ({@code %Error...} for Verilator, {@code ...: error:} for Icarus), else the message's start. */
    public String firstError() {
        for (String line : getMessage().split("\n")) {
            String l = line.strip();
            if (l.startsWith("%Error") || l.contains(": error:") || l.contains("syntax error")) {
                return l;
            }
        }
        String m = getMessage().strip();
        return m.length() > 300 ? m.substring(0, 300) + "..." : m;
    }
}
