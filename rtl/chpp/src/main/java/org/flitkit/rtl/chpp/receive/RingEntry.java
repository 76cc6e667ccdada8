package org.flitkit.rtl.chpp.receive;

import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.formats.chpp.Chpp;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * A completion entry on its way to {@link CompletionRing}: the 16-byte entry (formats/chpp
 * {@code CompletionLayouts}, Phase ignored) and the ring it goes to, the local QP index function x 4 + QP (the send
 * entry does not name its function, so the ring travels beside it). docs/chpp-nic.md, "Completion rings".
 */
public final class RingEntry extends Bundle {
    public final UInt ring = UInt(QpKeyWrite.QP_INDEX_BITS);
    public final UInt entry = UInt(Chpp.COMPLETION_BYTES * 8);
}
