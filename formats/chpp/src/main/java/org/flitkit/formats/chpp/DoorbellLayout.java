package org.flitkit.formats.chpp;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * The 64-bit doorbell write (paper section 3.4.2: "one write of the doorbell register", carrying the
 * descriptor's address and length). Software writes it to offset {@code qp << 12} of its function's doorbell
 * window: each QP's doorbell is alone in a 4 KB page the OS maps into the QP owner's process, so the QP comes
 * from the page written, not from the data.
 */
public final class DoorbellLayout {

    public static final Write WRITE = new Write();

    private DoorbellLayout() {
    }

    /** The 64-bit data of the write, little-endian. */
    public static final class Write extends Format {
        public final Field ADDRESS = field("Address", 0, Chpp.DOORBELL_ADDRESS_BITS, "host physical address of the descriptor, 8-byte aligned (bits 2:0 = 0)");
        public final Field WORDS = field("Words", 52, 10, "descriptor length in 8-byte words, 1..512 (8..4096 bytes)");

        private Write() {
            super("doorbell-write", 64, Place.ALONE);
        }
    }
}
