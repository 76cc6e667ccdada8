package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.SrcLoc;
import org.flitkit.hdl.UInt;

/**
 * A register counting 0, 1, ..., n-1, 0, ... (chisel3.util.Counter), built in the current module.
 * {@link #inc()} advances it under the enclosing when conditions and {@link #wrap()} is high on the
 * cycle it advances from n-1 back to 0. Registers are named {@code counter} unless {@link #named} says otherwise.
 *
 * <p>The other kinds (docs/dsl.md "Counters"): {@link #saturating} stops at n-1, {@link #upDown} also counts
 * down with {@link #dec()} (wrapping from 0 to n-1), {@link #upDownSaturating} stops at both ends;
 * every kind has {@link #clear()} and {@link #load}, which win over counting in the same cycle, and
 * {@link #enabled} advances on a condition.
 */
public final class Counter {
    /** The modulus: the counter takes the values 0..n-1 (a {@code long}: {@code 1L << 32} is a 32-bit event counter). */
    public final long n;
    /** The count (a register, reset to 0). */
    public final UInt value;
    /** High on cycles where {@link #inc()} applies. */
    private final Bool incr;
    /** High on cycles where {@link #dec()} applies; null for counters that only count up. */
    private final Bool decr;
    private final Bool last;
    private final Bool wrap;

    public Counter(long n) {
        this(n, false, false);
    }

    private Counter(long n, boolean saturate, boolean down) {
        if (n < 1) {
            throw new HdlException("Counter(" + n + "): the modulus must be at least 1");
        }
        this.n = n;
        int w = Bitwise.log2Up(n);
        value = regInit(UInt(w), 0).named("counter");
        incr = wireDefault(Bool(), 0).named("counter_inc");
        decr = down ? wireDefault(Bool(), 0).named("counter_dec") : null;
        last = value.eq(n - 1);
        // inc and dec in the same cycle cancel out
        Bool up = down ? incr.andNot(decr) : incr;
        wrap = saturate ? FALSE() : up.and(last);
        if (saturate) {
            when(up.andNot(last), () -> value.assign(value.add(1)));
        } else {
            UInt next = n == 1L << w ? value.add(1) : mux(last, lit(0, w), value.add(1));
            when(up, () -> value.assign(next));
        }
        if (down) {
            Bool dn = decr.andNot(incr);
            Bool first = value.eq(0);
            if (saturate) {
                when(dn.andNot(first), () -> value.assign(value.sub(1)));
            } else {
                UInt prev = n == 1L << w ? value.sub(1) : mux(first, lit(n - 1, w), value.sub(1));
                when(dn, () -> value.assign(prev));
            }
        }
    }

    /** A counter of 0..n-1 that stays at n-1 (event and statistics counters); {@link #wrap()} is never high. */
    public static Counter saturating(long n) {
        return new Counter(n, true, false);
    }

    /** A counter of 0..n-1 with {@link #inc()} and {@link #dec()}, wrapping at both ends (n-1 to 0, 0 to n-1). */
    public static Counter upDown(long n) {
        return new Counter(n, false, true);
    }

    /** A counter of 0..n-1 with {@link #inc()} and {@link #dec()} that stays at 0 and at n-1 (credit counters). */
    public static Counter upDownSaturating(long n) {
        return new Counter(n, true, true);
    }

    /** A counter that advances on every cycle where {@code enable} is high (Chisel's {@code Counter(cond, n)}). */
    public static Counter enabled(Bool enable, long n) {
        Counter c = new Counter(n);
        when(enable, c::inc);
        return c;
    }

    /** Advances the count under the enclosing when conditions; returns {@link #wrap()}. */
    public Bool inc() {
        incr.assign(TRUE());
        return wrap;
    }

    /** Counts down under the enclosing when conditions (only {@link #upDown} and {@link #upDownSaturating} counters). */
    public void dec() {
        if (decr == null) {
            throw new HdlException("dec() at " + SrcLoc.here() + ": this counter only counts up; make it with Counter.upDown("
                    + n + ") or Counter.upDownSaturating(" + n + ")");
        }
        decr.assign(TRUE());
    }

    /** Returns to 0 under the enclosing when conditions; wins over {@link #inc()} in the same cycle. */
    public void clear() {
        value.assign(0);
    }

    /** Takes {@code v} under the enclosing when conditions (e.g. a length to count down from); wins over counting. */
    public void load(UInt v) {
        if (v.width() > value.width()) {
            throw new HdlException("load at " + SrcLoc.here() + ": a " + v.width() + "-bit value does not fit the "
                    + value.width() + "-bit counter " + value.path());
        }
        value.assign(v.pad(value.width()));
    }

    public void load(long v) {
        if (v < 0 || v >= n) {
            throw new HdlException("load(" + v + ") at " + SrcLoc.here() + ": the counter takes values 0.." + (n - 1));
        }
        value.assign(v);
    }

    /** The count is n-1: the next increment wraps (or, saturating, does nothing). */
    public Bool isLast() {
        return last;
    }

    /** High when the counter advances from n-1 to 0 this cycle. */
    public Bool wrap() {
        return wrap;
    }

    /** Names the register ({@code name}) and its strobes ({@code name_inc}, {@code name_dec}) for waveforms. */
    public Counter named(String name) {
        value.named(name);
        incr.named(name + "_inc");
        if (decr != null) {
            decr.named(name + "_dec");
        }
        return this;
    }
}
