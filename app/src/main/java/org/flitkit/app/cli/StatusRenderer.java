package org.flitkit.app.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ProgressBarRenderer;
import me.tongfei.progressbar.ProgressState;

/**
 * Renders a command's {@link StatusLine}: {@code label: doing  N cycles  R cycles/s  h:mm:ss}, where
 * {@code doing} is the bar's extra message (the current phase, run or wait), N the cycles simulated since
 * the command began (kept outside the bar, which would take a lock for each run) and R the rate over the last second or so. Cut in the middle to fit the terminal.
 */
final class StatusRenderer implements ProgressBarRenderer {
    private static final long RATE_WINDOW_NANOS = 1_000_000_000L;

    private final String label;
    private final LongSupplier cycles;
    private long sampleNanos = System.nanoTime();
    private long sampleCycles;
    private long rate = -1;

    /** {@code cycles} says how many cycles the command has simulated so far. */
    StatusRenderer(String label, LongSupplier cycles) {
        this.label = label;
        this.cycles = cycles;
    }

    @Override
    public String render(ProgressState state, int maxLength) {
        long cycles = this.cycles.getAsLong();
        long now = System.nanoTime();
        if (now - sampleNanos >= RATE_WINDOW_NANOS) {
            rate = Math.round((cycles - sampleCycles) * 1e9 / (now - sampleNanos));
            sampleNanos = now;
            sampleCycles = cycles;
        }
        StringBuilder tail = new StringBuilder();
        if (cycles > 0) {
            tail.append(String.format(Locale.ROOT, "  %,d cycles", cycles));
            if (rate > 0) {
                tail.append(String.format(Locale.ROOT, "  %,d cycles/s", rate));
            }
        }
        tail.append("  ").append(clock(state.getTotalElapsed()));
        String doing = state.getExtraMessage();
        String head = doing == null || doing.isEmpty() ? label : label + ": " + doing;
        int room = maxLength - 1 - tail.length();
        if (head.length() > room) {
            head = room > 3 ? head.substring(0, room - 3) + "..." : "";
        }
        return head + tail;
    }

    /** {@code h:mm:ss}. */
    static String clock(Duration d) {
        long s = d.getSeconds();
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }
}
