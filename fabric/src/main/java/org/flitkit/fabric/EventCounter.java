package org.flitkit.fabric;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;

/**
 * Event counters of the board models and the blocks they carry: 32 bits that stop at all-ones instead of
 * wrapping, so a count never lies low. docs/cable.md, "The cable model".
 */
public final class EventCounter {
    /** Width of every event counter. */
    public static final int BITS = 32;

    private EventCounter() {
    }

    /** A saturating counter register that counts the cycles where {@code event} is high. */
    public static UInt count(Bool event, String name) {
        UInt c = regInit(UInt(BITS), 0).named(name);
        when(event.and(c.andR().not()), () -> c.assign(c.add(1)));
        return c;
    }
}
