package org.flitkit.app.cli;

import java.time.Duration;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import org.flitkit.testbench.ProgressListener;

/**
 * A testbench's progress on the terminal (stderr), drawn with me.tongfei:progressbar: a bar over the
 * cycles of a {@code run}, an indeterminate one counting cycles while a {@code runUntil} waits. Runs
 * shorter than {@link #DELAY} draw nothing, and every bar is cleared when done, so what stays on the
 * screen is the command's own output.
 */
final class ProgressBars implements ProgressListener, AutoCloseable {
    static final Duration DELAY = Duration.ofSeconds(2);

    private final String label;
    private final long createdNanos = System.nanoTime();
    private ProgressBar bar;
    private String barWhat;
    private long barStart;

    /** {@code label} names the run on every bar, e.g. the scenario. */
    ProgressBars(String label) {
        this.label = label;
    }

    @Override
    public void progress(String what, long cycle, long start, long end) {
        if (bar == null && System.nanoTime() - createdNanos < DELAY.toNanos()) {
            return;
        }
        if (bar == null || start != barStart || !what.equals(barWhat)) {
            close();
            bar = new ProgressBarBuilder()
                    .setTaskName(what.equals("run") ? label : label + ": " + what)
                    .setInitialMax(end < 0 ? -1 : end - start)
                    .setUnit(" cycles", 1)
                    .showSpeed()
                    .setUpdateIntervalMillis(250)
                    .clearDisplayOnFinish()
                    .build();
            barWhat = what;
            barStart = start;
        }
        bar.stepTo(cycle - start);
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
