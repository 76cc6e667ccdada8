package org.flitkit.rtl.chpp;

import org.flitkit.rtl.chpp.send.SendCompletionEvent;
import static org.flitkit.hdl.Hdl.*;
import java.util.List;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.CompletionLayouts;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;

/**
 * Builders of the 128-bit completion ring entries (formats/chpp {@code CompletionLayouts}) from hardware values,
 * every field placed through its layout handle, Phase 0 (the ring sets it). docs/chpp-upload.md.
 */
public final class Entries {
    /** Entry width: one 16-byte beat. */
    public static final int BITS = 8 * Chpp.COMPLETION_BYTES;

    private Entries() {
    }

    /** The send completion entry (formats {@code CompletionLayouts.SEND}) of one event, Phase 0. */
    public static UInt send(SendCompletionEvent e) {
        CompletionLayouts.Send s = CompletionLayouts.SEND;
        return LayoutBits.pack(BITS, List.of(
                new LayoutBits.Slot(s.KIND, e.kind),
                new LayoutBits.Slot(s.QP, e.qp),
                new LayoutBits.Slot(s.STATUS, e.status),
                new LayoutBits.Slot(s.COOKIE, e.cookie),
                new LayoutBits.Slot(s.BYTES, e.bytes)));
    }

    /** A receive completion entry (formats {@code CompletionLayouts.RECEIVE}), Phase 0. */
    public static UInt receive(UInt address64, UInt pktType, Bool resp, UInt status, UInt srcId, UInt dstId, UInt length) {
        CompletionLayouts.Receive r = CompletionLayouts.RECEIVE;
        return LayoutBits.pack(BITS, List.of(
                new LayoutBits.Slot(r.ADDRESS, address64),
                new LayoutBits.Slot(r.PKT_TYPE, pktType),
                new LayoutBits.Slot(r.RESP, resp),
                new LayoutBits.Slot(r.STATUS, status),
                new LayoutBits.Slot(r.SRC_ID, srcId),
                new LayoutBits.Slot(r.DST_ID, dstId),
                new LayoutBits.Slot(r.LENGTH, length)));
    }
}
