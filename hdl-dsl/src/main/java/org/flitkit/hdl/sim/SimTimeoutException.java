package org.flitkit.hdl.sim;

/** A {@code runUntil} condition did not come true within its cycle budget: the testbench fails instead of hanging. */
public class SimTimeoutException extends RuntimeException {
    private final long cycle;

    public SimTimeoutException(String message, long cycle) {
        super(message);
        this.cycle = cycle;
    }

    /** Simulation cycle at which the run gave up. */
    public long cycle() {
        return cycle;
    }
}
