package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/** A packet leaving the ring at its destination: who sent it and its tag. */
public final class Delivery extends Bundle {
    public final UInt src;
    public final UInt tag;

    public Delivery(RingParams p) {
        src = UInt(p.nodeBits());
        tag = UInt(p.tagBits());
    }
}
