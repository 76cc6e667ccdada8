package org.flitkit.rtl.chpp.send;

import static org.flitkit.hdl.Hdl.Bool;
import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One source or destination segment of a descriptor (formats/chpp chain segment: address, length), in descriptor
 * order; {@code last} on the descriptor's final segment of this stream. docs/chpp-send-engine.md, "Ports".
 */
public final class SegmentBeat extends Bundle {
    /** Source: local 64-bit host address; destination: the receiver's 48-bit address (upper bits 0). */
    public final UInt address = UInt(64);
    /** Bytes, 1..2^32-1 (a NAP indirect's source 1..2048). */
    public final UInt length = UInt(32);
    public final Bool last = Bool();
}
