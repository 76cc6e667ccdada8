package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;

/** Event counters of the cHPP blocks: 32 bits that stop at all-ones instead of wrapping, so a count never lies low. */
public final class Counters {
    /** Width of every event counter output. */
    public static final int BITS = 32;

    private Counters() {
    }

    /** A saturating counter register that counts the cycles where {@code event} is high. */
    public static UInt count(Bool event, String name) {
        UInt c = regInit(UInt(BITS), 0).named(name);
        when(event.and(c.andR().not()), () -> c.assign(c.add(1)));
        return c;
    }
}
