package org.flitkit.testbench;

/**
 * Told how far a {@link Testbench} has got, so a command line can draw its progress without the framework
 * depending on a terminal library: at the start and end of every {@link Testbench#run} and
 * {@link Testbench#runUntil} and every {@link Testbench#PROGRESS_INTERVAL} cycles in between, and at each named
 * {@link #phase} of a long set-up. Called on the simulating thread (several at once when a scenario runs
 * testbenches in parallel) between cycles: keep it cheap.
 */
@FunctionalInterface
public interface ProgressListener {
    /**
     * @param what {@code "run"} for {@link Testbench#run}, else what {@link Testbench#runUntil} waits for
     * @param cycle the current cycle; equal to {@code start} on the call that opens a run or wait
     * @param start the cycle this run or wait began at
     * @param end the cycle a {@code run} ends at, or -1 for a wait, whose length is not known
     */
    void progress(String what, long cycle, long start, long end);

    /**
     * The calling thread now does {@code name}, a stretch of set-up worth naming because it takes long
     * (building the design, the power-up E2PROM loads, link training), until its next phase; null when the
     * set-up is over and only the runs are left to report.
     */
    default void phase(String name) {
    }
}
