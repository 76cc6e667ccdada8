package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.CompletionLayouts;
import org.flitkit.formats.th2.Field;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;

/**
 * Builders of the 128-bit completion ring entries (formats/chpp {@code CompletionLayouts}) from hardware values,
 * every field placed through its layout handle, Phase 0 (the ring sets it). docs/chpp-upload.md.
 */
final class Entries {
    /** Entry width: one 16-byte beat. */
    static final int BITS = 8 * Chpp.COMPLETION_BYTES;

    private Entries() {
    }

    /** A value placed at a layout field. */
    record Slot(Field field, Bits value) {
    }

    /** The {@code width}-bit word with each slot's value at its field (widths checked), zero elsewhere. */
    static UInt pack(int width, List<Slot> slots) {
        List<Slot> sorted = new ArrayList<>(slots);
        sorted.sort(Comparator.comparingInt((Slot s) -> s.field().lsb()).reversed());
        List<Bits> parts = new ArrayList<>();
        int top = width;
        for (Slot s : sorted) {
            Field f = s.field();
            if (s.value().width() != f.width()) {
                throw new IllegalStateException(f + ": value of " + s.value().width() + " bits");
            }
            if (top < f.msb() + 1) {
                throw new IllegalStateException(f + " overlaps another field");
            }
            if (top > f.msb() + 1) {
                parts.add(lit(0, top - f.msb() - 1));
            }
            parts.add(s.value());
            top = f.lsb();
        }
        if (top > 0) {
            parts.add(lit(0, top));
        }
        return cat(parts);
    }

    /** The send completion entry (formats {@code CompletionLayouts.SEND}) of one event, Phase 0. */
    static UInt send(SendCompletionEvent e) {
        CompletionLayouts.Send s = CompletionLayouts.SEND;
        return pack(BITS, List.of(
                new Slot(s.KIND, e.kind),
                new Slot(s.QP, e.qp),
                new Slot(s.STATUS, e.status),
                new Slot(s.COOKIE, e.cookie),
                new Slot(s.BYTES, e.bytes)));
    }

    /** A receive completion entry (formats {@code CompletionLayouts.RECEIVE}), Phase 0. */
    static UInt receive(UInt address64, UInt pktType, Bool resp, UInt status, UInt srcId, UInt dstId, UInt length) {
        CompletionLayouts.Receive r = CompletionLayouts.RECEIVE;
        return pack(BITS, List.of(
                new Slot(r.ADDRESS, address64),
                new Slot(r.PKT_TYPE, pktType),
                new Slot(r.RESP, resp),
                new Slot(r.STATUS, status),
                new Slot(r.SRC_ID, srcId),
                new Slot(r.DST_ID, dstId),
                new Slot(r.LENGTH, length)));
    }

    /** Bits {@code f} of {@code v}. */
    static UInt field(UInt v, Field f) {
        return v.bits(f.msb(), f.lsb());
    }

    /** The 16 bytes of a beat in the other order: wire order (byte 0 in bits 127:120) to PCIe order and back. */
    static UInt byteSwap(UInt beat) {
        int n = beat.width() / 8;
        List<Bits> parts = new ArrayList<>();
        // cat puts its first part on top: PCIe byte n-1 (top) is wire byte n-1, at wire bits 7:0
        for (int i = 0; i < n; i++) {
            parts.add(beat.bits(8 * i + 7, 8 * i));
        }
        return cat(parts);
    }
}
