package org.flitkit.testbench;

/**
 * Told how far a {@link Testbench} has got, every {@link Testbench#PROGRESS_INTERVAL} cycles of a
 * {@link Testbench#run} or {@link Testbench#runUntil} and at the end of each {@code run}, so a command
 * line can draw a progress bar without the framework depending on one. Called on the simulating
 * thread between cycles: keep it cheap.
 */
@FunctionalInterface
public interface ProgressListener {
    /**
     * @param what {@code "run"} for {@link Testbench#run}, else what {@link Testbench#runUntil} waits for
     * @param cycle the current cycle
     * @param start the cycle this run or wait began at
     * @param end the cycle a {@code run} ends at, or -1 for a wait, whose length is not known
     */
    void progress(String what, long cycle, long start, long end);
}
