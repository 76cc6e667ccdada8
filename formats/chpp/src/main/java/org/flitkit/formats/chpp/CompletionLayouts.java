package org.flitkit.formats.chpp;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * Completion ring entries in host memory (paper section 4, "three buffers": the send completion ring, the
 * receive completion ring shared by NAP and PUT): 16 bytes, two little-endian 64-bit words. The Phase bit
 * is bit 127, in the entry's last byte, so the entry is complete when software sees it flip.
 */
public final class CompletionLayouts {

    public static final Send SEND = new Send();
    public static final Receive RECEIVE = new Receive();

    private CompletionLayouts() {
    }

    /** A send completion: one per descriptor with SCE, and one per descriptor that ended in error. */
    public static final class Send extends Format {
        public final Field KIND = field("Kind", 0, DescKind.BITS, "Kind of the completed descriptor (its code; 0 if the descriptor was unreadable)");
        public final Field QP = field("QP", 4, Chpp.QP_BITS, "QP the descriptor belongs to");
        public final Field STATUS = field("Status", 8, CompletionStatus.BITS, "status code (send codes only)");
        public final Field COOKIE = field("Cookie", 16, 16, "the descriptor's Cookie");
        public final Field BYTES = field("Bytes", 64, 32, "payload bytes sent (on error: sent before the error)");
        public final Field PHASE = field("Phase", 127, 1, "1 on the ring's first lap, then flips on every wrap: a new entry has the phase software expects");

        private Send() {
            super("send-completion", 8 * Chpp.COMPLETION_BYTES, Place.ALONE);
        }
    }

    /** A receive completion: one per NAP, and one per PUT transfer whose last packet has CE. */
    public static final class Receive extends Format {
        public final Field ADDRESS = field("Address", 0, 64, "NAP: the 2 KB-aligned receive buffer holding the message; PUT: Address of the last packet");
        public final Field PKT_TYPE = field("PKTType", 64, PktType.BITS, "1 = NAP, 2 = PUT");
        public final Field RESP = field("Resp", 66, 1, "1 = the PUT answered this QP's GET (the GET is done)");
        public final Field STATUS = field("Status", 72, CompletionStatus.BITS, "status code (receive codes only)");
        public final Field SRC_ID = field("SRC_ID", 80, Chpp.ID_BITS, "the packet's SRC_ID (sender)");
        public final Field DST_ID = field("DST_ID", 88, Chpp.ID_BITS, "the packet's DST_ID (this QP)");
        public final Field LENGTH = field("Length", 96, Chpp.LENGTH_BITS, "NAP: message bytes; PUT: bytes of the last packet");
        public final Field PHASE = field("Phase", 127, 1, "as in the send completion");

        private Receive() {
            super("receive-completion", 8 * Chpp.COMPLETION_BYTES, Place.ALONE);
        }
    }
}
