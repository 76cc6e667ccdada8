package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/** One ring slot as it moves from node to node: full or empty, and the packet it carries (docs/multiring.md, "RTL"). */
public final class Slot extends Bundle {
    public final Bool valid = Bool();
    public final UInt dst;
    public final UInt src;
    public final UInt tag;

    public Slot(RingParams p) {
        dst = UInt(p.nodeBits());
        src = UInt(p.nodeBits());
        tag = UInt(p.tagBits());
    }
}
