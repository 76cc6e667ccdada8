package org.flitkit.testbench;

/**
 * A check failed during simulation. The message says when (cycle), who noticed (component), what
 * (expected vs. observed) and how to reproduce it (seed). An {@link AssertionError}, so JUnit reports
 * it as a test failure rather than an error.
 */
public final class TestbenchFailure extends AssertionError {
    private static final long serialVersionUID = 1L;
    private final long cycle;
    private final String component;
    private final String detail;
    private final long seed;

    public TestbenchFailure(long cycle, String component, String detail, long seed) {
        super("cycle " + cycle + ": " + component + ": " + detail + "\n  seed=" + seed);
        this.cycle = cycle;
        this.component = component;
        this.detail = detail;
        this.seed = seed;
    }

    /** Simulation cycle at which the check failed. */
    public long cycle() {
        return cycle;
    }

    /** Name of the component (driver, monitor, scoreboard, testbench) that detected the failure. */
    public String component() {
        return component;
    }

    /** What went wrong, without the cycle/component/seed decoration. */
    public String detail() {
        return detail;
    }

    /** The root seed of the run, to reproduce it. */
    public long seed() {
        return seed;
    }
}
