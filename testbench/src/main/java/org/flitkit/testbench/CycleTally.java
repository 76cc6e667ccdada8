package org.flitkit.testbench;

import java.util.concurrent.atomic.LongAdder;

/**
 * Sums the simulated cycles of every run and wait reported to it, from any number of threads and testbenches, and
 * passes each report on to a delegate (e.g. a command's status line): the cycles of a scenario made of many
 * separate simulations, such as a figures run. README, "The ./hdl command".
 */
public final class CycleTally implements ProgressListener {
    private final ProgressListener delegate;
    /** The cycle the calling thread last reported: each thread runs one testbench at a time. */
    private final ThreadLocal<long[]> last = ThreadLocal.withInitial(() -> new long[1]);
    /** Added to by every simulating thread without a lock; read when someone asks for the total. */
    private final LongAdder cycles = new LongAdder();

    /** A tally that tells nobody else. */
    public CycleTally() {
        this(null);
    }

    /** A tally that passes every report on to {@code delegate} (null: nobody). */
    public CycleTally(ProgressListener delegate) {
        this.delegate = delegate;
    }

    @Override
    public void progress(String what, long cycle, long start, long end) {
        count(cycle, start);
        if (delegate != null) {
            delegate.progress(what, cycle, start, end);
        }
    }

    @Override
    public void phase(String name) {
        if (delegate != null) {
            delegate.phase(name);
        }
    }

    /**
     * Counts the report of the calling thread that its run or wait from {@code start} got to {@code cycle}, and
     * returns the cycles that are new since its last report.
     */
    public long count(long cycle, long start) {
        long[] l = last.get();
        // every run and wait opens with cycle == start: count from there, also when a new testbench starts over
        if (cycle == start) {
            l[0] = start;
            return 0;
        }
        if (cycle <= l[0]) {
            return 0;
        }
        long done = cycle - l[0];
        l[0] = cycle;
        cycles.add(done);
        return done;
    }

    /** The cycles counted so far, over all threads. */
    public long total() {
        return cycles.sum();
    }
}
