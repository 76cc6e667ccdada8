package org.flitkit.rtl.chpp.send;

import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * A send completion for the ring writer: what formats/chpp's send completion entry needs except Phase (the
 * ring's). Posted by {@link DescriptorExtract} for every refused or failed descriptor, and for a GET with SCE once
 * its packet has left. docs/chpp-send-engine.md, "Ports"; docs/chpp-formats.md, "Send completion".
 */
public final class SendCompletionEvent extends Bundle {
    /** formats/chpp Status code (send codes). */
    public final UInt status = UInt(8);
    public final UInt function = UInt(Doorbell.FUNCTION_BITS);
    public final UInt qp = UInt(Doorbell.QP_BITS);
    /** Descriptor Kind code; 0 when the Kind itself was refused or the descriptor never arrived. */
    public final UInt kind = UInt(4);
    public final UInt cookie = UInt(16);
    /** Payload bytes sent: 0 for a refused or unread descriptor; a GET's requested Length. */
    public final UInt bytes = UInt(32);
}
