package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;

/**
 * A register counting 0, 1, ..., n-1, 0, ... (chisel3.util.Counter), built in the current module.
 * {@link #inc()} advances it under the enclosing when conditions and {@link #wrap()} is high on the
 * cycle it advances from n-1 back to 0. Registers are named {@code counter} unless {@link #named} says otherwise.
 */
public final class Counter {
    /** The modulus: the counter takes the values 0..n-1. */
    public final int n;
    /** The count (a register, reset to 0). */
    public final UInt value;
    /** High on cycles where {@link #inc()} applies. */
    private final Bool incr;
    private final Bool last;
    private final Bool wrap;

    public Counter(int n) {
        if (n < 1) {
            throw new HdlException("Counter(" + n + "): the modulus must be at least 1");
        }
        this.n = n;
        int w = Bitwise.log2Up(n);
        value = regInit(UInt(w), 0).named("counter");
        incr = wireDefault(Bool(), 0).named("counter_inc");
        last = value.eq(n - 1);
        wrap = incr.and(last);
        UInt next = n == 1L << w ? value.add(1) : mux(last, lit(0, w), value.add(1));
        when(incr, () -> value.assign(next));
    }

    /** A counter that advances on every cycle where {@code enable} is high (Chisel's {@code Counter(cond, n)}). */
    public static Counter enabled(Bool enable, int n) {
        Counter c = new Counter(n);
        when(enable, c::inc);
        return c;
    }

    /** Advances the count under the enclosing when conditions; returns {@link #wrap()}. */
    public Bool inc() {
        incr.assign(TRUE());
        return wrap;
    }

    /** Returns to 0 under the enclosing when conditions; wins over {@link #inc()} in the same cycle. */
    public void clear() {
        value.assign(0);
    }

    /** The count is n-1: the next increment wraps. */
    public Bool isLast() {
        return last;
    }

    /** High when the counter advances from n-1 to 0 this cycle. */
    public Bool wrap() {
        return wrap;
    }

    /** Names the register ({@code name}) and its increment strobe ({@code name_inc}) for waveforms. */
    public Counter named(String name) {
        value.named(name);
        incr.named(name + "_inc");
        return this;
    }
}
