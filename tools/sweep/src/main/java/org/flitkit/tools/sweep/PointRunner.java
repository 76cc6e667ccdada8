package org.flitkit.tools.sweep;

import java.io.PrintStream;
import java.util.List;

/**
 * Runs one point in this JVM: the same code the figure, scenario or difftest uses. {@code log} is the point's log
 * file (its progress and anything a failure should show). docs/sweeps.md, "Points".
 */
@FunctionalInterface
public interface PointRunner {
    /** What a point gives before it becomes a {@link Row}: named numbers and notes. */
    record Result(List<String> columns, double[] values, List<String> notes) {
        public Result(List<String> columns, double[] values) {
            this(columns, values, List.of());
        }
    }

    Result run(Point point, PrintStream log);
}
