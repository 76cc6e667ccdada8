package org.flitkit.figures;

import java.time.LocalDate;

/** A figure's model value as last measured, the day it was measured and the command that did it (a row of the log). */
public record LastMeasured(String id, double value, LocalDate date, String command) {
    public LastMeasured {
        Citation.requireText(command, "command of figure " + id);
        if (command.contains(",") || command.contains("\n") || command.contains("|")) {
            throw new IllegalArgumentException("figure " + id + ": the command cannot contain ',', '|' or a line break: '" + command + "'");
        }
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("figure " + id + ": the model value is not finite: " + value);
        }
    }
}
