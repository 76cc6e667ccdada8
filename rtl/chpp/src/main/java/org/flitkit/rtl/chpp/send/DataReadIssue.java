package org.flitkit.rtl.chpp.send;

import static org.flitkit.hdl.Hdl.Bool;
import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One entry {@link DataRead} puts in the reorder order (paper 4.1, data read -> data extract / data reorder): a
 * PCIe read it issued (tag, the reorder-buffer bytes reserved for it), or a marker without a read that ends or
 * fails a transfer. Read slots are taken in order, so the slot sequence is the transfers' byte order.
 * docs/chpp-data-stages.md, "Ports".
 */
public final class DataReadIssue extends Bundle {
    /** Width of {@link #slot}: up to {@link DataReorder#MAX_SLOTS} read slots. */
    public static final int SLOT_BITS = 6;
    /** Width of {@link #pos}: a reorder-buffer byte position with its wrap bit, buffers up to 64 KB. */
    public static final int POS_BITS = 17;

    /** The read's PCIe tag (unused on a marker). */
    public final UInt tag = UInt(8);
    /** Read slot in the reorder order (its low bits; the slot count is a power of two). */
    public final UInt slot = UInt(SLOT_BITS);
    /** Reorder-buffer byte position of the read's first byte (with wrap bit; low bits used). */
    public final UInt pos = UInt(POS_BITS);
    /** Bytes read, 1..Max_Read_Request_Size; 0 on a marker. */
    public final UInt len = UInt(13);
    /** The transfer's final entry: its last read, or the marker that ends it. */
    public final Bool last = Bool();
    /** No read: an entry born done with {@link #status} (OK: the end of an abandoned transfer). */
    public final Bool marker = Bool();
    /** A marker's formats {@code Status} code (BAD_DESCRIPTOR for a zero-length segment); OK for a read. */
    public final UInt status = UInt(8);
    /** The transfer's sequence number (wraps at 256), to tell {@link DataRead} which transfer failed. */
    public final UInt seq = UInt(8);
}
