package org.flitkit.hdl.sim;

/**
 * The variant policy of {@link Simulator#step(long)}: which evaluation variant runs the next window of 4,096
 * cycles, the flagged one (activity skipping) or the plain one (docs/simulator.md, "Flags"). Activity skipping
 * pays where much logic is idle and costs where little is. While at least 90% of the chunk runs of a window
 * are skipped, skipping stays on; otherwise one window is timed without it and the faster variant runs for the
 * next windows, from 8 up to 256 while it keeps winning. The plain variant ends each window with 64 cycles of
 * skipping (the probe), and gives way as soon as those skip 90%: a design that goes idle (after a busy
 * start-up, say) is noticed within a window. Only speed depends on the choice, never results.
 *
 * <p>What the last comparison found is kept per compiled design ({@link Verdict}), so that a new instance of a
 * design known to run faster plain (a testbench's next run, a benchmark's timed run, the next point of a sweep)
 * opens in plain instead of spending its first two windows finding that out again; its first probe still
 * sends it back to flags if it is idle.
 */
final class VariantPolicy {
    /** cycles of a window, minus one: a window ends where {@code (cycle & WINDOW_MASK) == 0} */
    static final long WINDOW_MASK = 4095;
    /** cycles at the end of each plain window evaluated with flags, to measure the skip rate */
    static final int PROBE = 64;
    /** windows the faster variant runs before both are compared again: doubles while it keeps winning */
    static final int EXPLOIT_MIN = 8;
    static final int EXPLOIT_MAX = 256;

    /** What the policy is doing. */
    enum Phase {
        /** flagged, and skipping at least 90%, or not yet compared */
        FLAGGED,
        /** the first plain window after a switch: it pays for the switch, so it is not timed */
        PLAIN_WARM,
        /** a plain window timed against the last flagged one */
        PLAIN_TIMED,
        /** plain won: plain windows, each ending with a probe */
        PLAIN,
        /** flagged won: flagged windows until the next comparison */
        FLAGGED_WON,
        /** a test pinned the variant */
        PINNED
    }

    /** Which variant the last comparison of a design's windows chose, shared by every instance of the design. */
    static final class Verdict {
        private volatile boolean plainWon;

        boolean plainWon() {
            return plainWon;
        }
    }

    private final Verdict verdict;
    private Phase phase = Phase.FLAGGED;
    private boolean opened;
    private int windowsLeft;
    private int exploitPlain = EXPLOIT_MIN;
    private int exploitFlagged = EXPLOIT_MIN;
    private long flaggedNanos;

    /** A policy of its own (tests). */
    VariantPolicy() {
        this(new Verdict());
    }

    /** A policy that starts from, and updates, the verdict its design's instances share. */
    VariantPolicy(Verdict verdict) {
        this.verdict = verdict;
    }

    /**
     * The variant of the first window of this instance's first {@link Simulator#step(long)} of at least a window: plain if the design's
     * last comparison chose plain and it is compiled (then {@link Phase#PLAIN} with probes, for {@link #EXPLOIT_MIN}
     * windows), else flagged. Later calls return {@code plainNow}.
     */
    boolean opening(boolean plainReady, boolean plainNow) {
        if (opened || phase != Phase.FLAGGED) {
            return plainNow;
        }
        opened = true;
        if (verdict.plainWon && plainReady) {
            phase = Phase.PLAIN;
            windowsLeft = EXPLOIT_MIN;
            return true;
        }
        return plainNow;
    }

    Phase phase() {
        return phase;
    }

    /** Keeps the variant as it is until {@link #reset()} (for tests that pin one). */
    void pin() {
        phase = Phase.PINNED;
    }

    /** Starts again from the flagged variant (activity skipping switched on or off). */
    void reset() {
        phase = Phase.FLAGGED;
    }

    /** A policy in this one's phase, for a forked simulator. */
    VariantPolicy fork() {
        VariantPolicy p = new VariantPolicy(verdict);
        p.opened = opened;
        p.phase = phase;
        p.windowsLeft = windowsLeft;
        return p;
    }

    /** Whether the flagged variant takes over at cycle {@code i} of a run, for the probe at the end of a plain window. */
    boolean probeStartsAt(long i) {
        return (i & WINDOW_MASK) == WINDOW_MASK + 1 - PROBE && phase == Phase.PLAIN;
    }

    /**
     * The end of a window: it took {@code nanos} and skipped {@code skips} chunk runs of a design of {@code chunks}
     * chunks, its probe (if any) skipped {@code probeSkips}. Returns whether the plain variant runs the next window;
     * {@code plainNow} is whether it ran this one, {@code plainReady} whether it is compiled.
     */
    boolean windowEnded(long nanos, long skips, long probeSkips, int chunks, boolean plainReady, boolean plainNow) {
        switch (phase) {
            case PINNED -> {
                return plainNow;
            }
            case FLAGGED -> {
                if (skips < (WINDOW_MASK + 1) * chunks * 9 / 10 && plainReady) {
                    flaggedNanos = nanos;
                    phase = Phase.PLAIN_WARM;
                    return true;
                }
                return plainNow;
            }
            case PLAIN_WARM -> {
                phase = Phase.PLAIN_TIMED;
                return plainNow;
            }
            case PLAIN_TIMED -> {
                verdict.plainWon = nanos < flaggedNanos;
                if (nanos < flaggedNanos) {
                    phase = Phase.PLAIN;
                    windowsLeft = exploitPlain;
                    exploitPlain = Math.min(EXPLOIT_MAX, 2 * exploitPlain);
                    exploitFlagged = EXPLOIT_MIN;
                    return plainNow;
                }
                phase = Phase.FLAGGED_WON;
                windowsLeft = exploitFlagged;
                exploitFlagged = Math.min(EXPLOIT_MAX, 2 * exploitFlagged);
                exploitPlain = EXPLOIT_MIN;
                return false;
            }
            case PLAIN -> {
                // the probe's first cycle evaluates everything; the other 63 show the activity
                boolean idle = probeSkips >= (long) (PROBE - 1) * chunks * 9 / 10;
                if (idle) {
                    verdict.plainWon = false;
                }
                if (idle || --windowsLeft == 0) {
                    phase = Phase.FLAGGED;
                    exploitPlain = idle ? EXPLOIT_MIN : exploitPlain;
                    return plainNow;
                }
                return true;
            }
            default -> {
                if (--windowsLeft == 0) {
                    phase = Phase.FLAGGED;
                }
                return plainNow;
            }
        }
    }
}
