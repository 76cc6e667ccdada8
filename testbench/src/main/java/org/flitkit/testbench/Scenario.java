package org.flitkit.testbench;

/**
 * A runnable testbench scenario: builds its environment around a design, runs {@link RunConfig#cycles()} cycles
 * of stimulus with {@link RunConfig#seed()}, and returns what it counted, or throws
 * {@link TestbenchFailure}. The same scenario runs from {@code ./hdl run} and from JUnit.
 */
@FunctionalInterface
public interface Scenario {
    ScenarioResult run(RunConfig config);
}
