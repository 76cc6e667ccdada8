package org.flitkit.testbench;

/**
 * A runnable testbench: builds its environment around a design, runs {@link RunConfig#cycles()} cycles
 * of stimulus with {@link RunConfig#seed()}, and returns what it counted, or throws
 * {@link TestbenchFailure}. The same bench runs from {@code ./hdl run} and from JUnit.
 */
@FunctionalInterface
public interface Bench {
    BenchResult run(RunConfig config);
}
