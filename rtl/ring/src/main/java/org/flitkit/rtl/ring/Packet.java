package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/** What a source offers a ring node: destination and tag (the source is the node itself). */
public final class Packet extends Bundle {
    public final UInt dst;
    public final UInt tag;

    public Packet(RingParams p) {
        dst = UInt(p.nodeBits());
        tag = UInt(p.tagBits());
    }
}
