package org.flitkit.hdl.sim;

import org.flitkit.hdl.SrcLoc;

/**
 * An assertion made with {@code Hdl.check} failed in simulation: at the clock edge ending cycle
 * {@link #cycle()}, in instance {@link #instance()}, the condition written at {@link #loc()} was low.
 * The edge is not taken: the simulator stays at that cycle, with that cycle's values.
 */
public final class SimAssertionError extends AssertionError {
    private static final long serialVersionUID = 1L;
    private final long cycle;
    private final String instance;
    private final SrcLoc loc;
    private final String detail;

    public SimAssertionError(long cycle, String instance, SrcLoc loc, String detail) {
        super("assertion failed at cycle " + cycle + " in " + instance + " (" + loc + "): " + detail);
        this.cycle = cycle;
        this.instance = instance;
        this.loc = loc;
        this.detail = detail;
    }

    /** The cycle whose closing clock edge checked the assertion ({@code Simulator.cycle()} at that edge). */
    public long cycle() {
        return cycle;
    }

    /** Hierarchical path of the module instance, e.g. {@code top.fifo}. */
    public String instance() {
        return instance;
    }

    /** The user's line with the {@code check(...)} call. */
    public SrcLoc loc() {
        return loc;
    }

    /** The assertion's message with its values filled in. */
    public String detail() {
        return detail;
    }
}
