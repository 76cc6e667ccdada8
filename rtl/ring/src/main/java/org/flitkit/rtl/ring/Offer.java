package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * What a subscriber offers its station: destination, tag, and a uniform 16-bit {@code pick} that chooses among the
 * rings sharing the route, in proportion to the schedule's shares ({@link RingStation}).
 */
public final class Offer extends Bundle {
    public static final int PICK_BITS = 16;
    public final UInt dst;
    public final UInt tag;
    public final UInt pick = UInt(PICK_BITS);

    public Offer(RingParams p) {
        dst = UInt(p.nodeBits());
        tag = UInt(p.tagBits());
    }
}
