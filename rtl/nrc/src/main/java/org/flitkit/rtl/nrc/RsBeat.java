package org.flitkit.rtl.nrc;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.Th2;

/**
 * One beat on a relay-station link: 20 bits of packet data (a flit is 10 beats, bits 19:0 first) and a
 * 5-bit port tag, the NRC port the packet leaves by (outbound) or came in by (inbound), constant over
 * the packet's 40 beats. Spec: 20-th2-management.md, "Where management packets go inside the chips".
 */
public final class RsBeat extends Bundle {
    public static final int PORT_BITS = 5;

    public final UInt data = UInt(Th2.RS_BEAT_BITS);
    public final UInt port = UInt(PORT_BITS);
}
