package org.flitkit.rtl.chpp;

import org.flitkit.fabric.EventCounter;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;

/** Event counters of the cHPP blocks: 32 bits that stop at all-ones instead of wrapping, so a count never lies low. */
public final class Counters {
    /** Width of every event counter output. */
    public static final int BITS = EventCounter.BITS;

    private Counters() {
    }

    /** A saturating counter register that counts the cycles where {@code event} is high. */
    public static UInt count(Bool event, String name) {
        return EventCounter.count(event, name);
    }
}
