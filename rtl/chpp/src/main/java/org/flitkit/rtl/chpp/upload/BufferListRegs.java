package org.flitkit.rtl.chpp.upload;

import org.flitkit.formats.chpp.Chpp;

/**
 * The host-side NAP receive-buffer list and its BAR registers, defined once (paper section 4.2: buffer management
 * reads new NAP receive-buffer addresses from host memory when its cached set runs low). The list is a ring of
 * {@code size} 8-byte little-endian entries at {@code base}, each the address of one free 2 KB-aligned receive
 * buffer; software fills entries and advances the producer index, the hardware reads them in order.
 * docs/chpp-upload.md, "Register map".
 */
public final class BufferListRegs {
    /** BAR offset (from {@link BufferParams#mmioOffset()}) of the list base: host address of entry 0, 8-byte aligned (bits 2:0 ignored). */
    public static final int REG_BASE = 0x00;
    /** BAR offset of the list size in entries: a power of two, 1..{@link #MAX_ENTRIES}; anything else refused and counted. */
    public static final int REG_SIZE = 0x08;
    /** BAR offset of the producer index: entries software has posted since the base was set, free-running mod 2^32. */
    public static final int REG_PRODUCER = 0x10;
    /** Bytes of the register block. */
    public static final int REGS_BYTES = 0x18;
    /** One list entry: a 64-bit little-endian buffer address. */
    public static final int ENTRY_BYTES = 8;
    /** Largest list: 65,536 entries (512 KB of list, 128 MB of buffers). */
    public static final int MAX_ENTRIES = 1 << 16;
    /** Index registers' width: free-running 32-bit counts. */
    public static final int INDEX_BITS = 32;
    /** Every buffer is one 2 KB-aligned block (formats/chpp {@code Chpp.NAP_BUFFER_ALIGN}): an entry's bits 10:0 must be 0. */
    public static final int BUFFER_BYTES = Chpp.NAP_BUFFER_ALIGN;
    public static final int BUFFER_ALIGN_BITS = Integer.numberOfTrailingZeros(BUFFER_BYTES);

    private BufferListRegs() {
    }
}
