package org.flitkit.testbench;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.flitkit.hdl.sim.Simulator;

/**
 * A verification component (driver, monitor, scoreboard, model) written as a small state machine
 * instead of a thread: the {@link Testbench} calls every component once per phase of every cycle,
 * in the order they were added.
 *
 * <ol>
 *   <li>{@link #drive()}: before the clock edge, set the inputs this component owns
 *       (valid/bits of a source, ready of a sink).</li>
 *   <li>{@link #sample()}: after every component has driven and the logic has settled: the values the
 *       flip-flops are about to capture. Handshakes ({@code valid && ready}) complete here.</li>
 *   <li>the clock edge.</li>
 * </ol>
 *
 * Each component has a unique name, used in failure messages and to derive its own random stream
 * from the run's seed. A component built from others (a packet source over a beat source) returns
 * them from {@link #parts()}; the testbench adds them right after it, so it acts first in each phase.
 */
public abstract class Component {
    private final String name;
    private Testbench<?> tb;
    private Rng rng;

    protected Component(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a component needs a name");
        }
        this.name = name;
    }

    public final String name() {
        return name;
    }

    /** Called by {@link Testbench#add}. */
    final void attach(Testbench<?> testbench) {
        if (tb != null) {
            throw new IllegalStateException("component '" + name + "' is already part of a testbench");
        }
        tb = testbench;
        rng = testbench.rng(name);
    }

    /** Before the clock edge: poke the inputs this component drives. */
    protected void drive() {
    }

    /**
     * Before the clock edge, after all drives: observe settled values and completed handshakes. Read
     * only: a poke here would change what the flip-flops capture at this very edge.
     */
    protected void sample() {
    }

    /** While reset is applied: drive idle values and forget in-flight state. */
    protected void reset() {
    }

    /** At the end of a test ({@link Testbench#finish()}): final checks, e.g. nothing left outstanding. */
    protected void finish() {
    }

    /**
     * What this component still holds or waits for, for the message of a timeout: a summary line, then
     * one line per item (a scoreboard's outstanding items, a source's queued beats). Empty when it has
     * nothing to report, which is the default.
     */
    public List<String> describeState() {
        return List.of();
    }

    /**
     * A {@link #describeState()} answer: {@code summary}, then the first {@code max} of {@code items}
     * one per line, then {@code "... N more"} for the rest.
     */
    protected static <T> List<String> describe(String summary, Iterable<? extends T> items, int max,
            Function<? super T, String> show) {
        List<String> lines = new ArrayList<>();
        lines.add(summary);
        int n = 0;
        for (T item : items) {
            if (n++ < max) {
                lines.add(show.apply(item));
            }
        }
        if (n > max) {
            lines.add("... " + (n - max) + " more");
        }
        return lines;
    }

    /** The components this one is built from; {@link Testbench#add} adds them right after this one. */
    protected List<Component> parts() {
        return List.of();
    }

    protected final Testbench<?> tb() {
        if (tb == null) {
            throw new IllegalStateException("component '" + name + "' is not added to a testbench yet; use tb.add(...)");
        }
        return tb;
    }

    protected final Simulator sim() {
        return tb().sim();
    }

    /** This component's own random stream (derived from the run seed and the component name). */
    protected final Rng rng() {
        tb();
        return rng;
    }

    /** The current simulation cycle. */
    protected final long cycle() {
        return tb().cycle();
    }

    /** Stops the run with a failure naming this component, the cycle and the seed. */
    protected final TestbenchFailure fail(String detail) {
        throw new TestbenchFailure(cycle(), name, detail, tb().seed());
    }

    /** Fails naming {@code what} unless {@code observed} equals {@code expected} (for cycle-by-cycle model checks). */
    protected final void checkEqual(String what, Object expected, Object observed) {
        if (!Objects.equals(expected, observed)) {
            throw fail(what + ": expected " + expected + ", observed " + observed);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + " '" + name + "'";
    }
}
