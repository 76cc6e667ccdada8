package org.flitkit.formats.chpp;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * Send descriptors in host memory (paper sections 3.4.1-3.4.2, figure 8): little-endian 64-bit words, bit i
 * of the descriptor = bit (i mod 8) of byte i / 8. Word 0 is common to every kind (Kind, QP, completion
 * requests, target, key, cookie); the later words depend on the kind. A NAP immediate's data and a chain's
 * segment entries follow the fixed part. Fields by handle: {@code DescriptorLayouts.PUT.DST_ADDR}.
 */
public final class DescriptorLayouts {

    public static final NapImmediate NAP_IMMEDIATE = new NapImmediate();
    public static final NapIndirect NAP_INDIRECT = new NapIndirect();
    public static final Transfer PUT = new Transfer("put", "local source address of the data (64-bit host address)",
            "receiver's destination byte address (48-bit global space: DstAddr + Length <= 2^48)");
    public static final Transfer GET = new Transfer("get", "source address in the receiver's memory (read there)",
            "local destination byte address the data is PUT back to (48-bit: DstAddr + Length <= 2^48)");
    public static final Chain CHAIN = new Chain();
    public static final Segment SEGMENT = new Segment();

    private DescriptorLayouts() {
    }

    /** Word 0, common to every descriptor kind. */
    public abstract static class Head extends Format {
        public final Field KIND = field("Kind", 0, DescKind.BITS, "descriptor kind: 1 NAP immediate, 2 NAP indirect, 3 PUT, 4 GET, 5 chain");
        public final Field QP = field("QP", 4, Chpp.QP_BITS, "the QP the descriptor belongs to (must be the QP whose doorbell fetched it)");
        public final Field SCE = field("SCE", 6, 1, "1 = post a send completion event when the transfer is done (always posted on error)");
        public final Field RCE = field("RCE", 7, 1, "1 = the receiver posts a receive completion event (S_Flag CE on the last packet); must be 1 for NAP");
        public final Field DST_ID = field("DST_ID", 16, Chpp.ID_BITS, "target endpoint: processor, function, QP");
        public final Field QP_MAGIC = field("QPMagic", 32, Chpp.QP_MAGIC_BITS, "the connection's key, copied into every packet's QPMagic");
        public final Field COOKIE = field("Cookie", 48, 16, "software's tag for the request, echoed in the send completion (hardware ignores it)");

        protected Head(String name, int width) {
            super(name, width, Place.ALONE);
        }
    }

    /** NAP immediate: the head, then Length data bytes from byte 16, zero-padded to a whole word. */
    public static final class NapImmediate extends Head {
        public final Field LENGTH = field("Length", 64, Chpp.LENGTH_BITS, "data bytes in the descriptor, 0..2048");

        private NapImmediate() {
            super("nap-immediate", 128);
        }
    }

    /** NAP indirect: the head and the address of the data. */
    public static final class NapIndirect extends Head {
        public final Field LENGTH = field("Length", 64, Chpp.LENGTH_BITS, "message bytes, 0..2048");
        public final Field SRC_ADDR = field("SrcAddr", 128, 64, "local source address of the data (64-bit host address)");

        private NapIndirect() {
            super("nap-indirect", 192);
        }
    }

    /** PUT and GET: one source and one destination segment of the same length. */
    public static final class Transfer extends Head {
        public final Field LENGTH = field("Length", 64, 32, "bytes to transfer, 1..2^32-1");
        public final Field SRC_ADDR;
        public final Field DST_ADDR;

        private Transfer(String name, String src, String dst) {
            super(name, 256);
            SRC_ADDR = field("SrcAddr", 128, 64, src);
            DST_ADDR = field("DstAddr", 192, 64, dst);
        }
    }

    /** Chain DMA: the head and the segment counts; SrcCount source then DstCount destination {@link Segment}s follow. */
    public static final class Chain extends Head {
        public final Field SRC_COUNT = field("SrcCount", 64, 8, "source segments, >= 1");
        public final Field DST_COUNT = field("DstCount", 72, 8, "destination segments, >= 1; SrcCount + DstCount <= 255");

        private Chain() {
            super("chain", 128);
        }
    }

    /** One chain segment entry (16 bytes). */
    public static final class Segment extends Format {
        public final Field ADDRESS = field("Address", 0, 64, "source: local 64-bit address; destination: receiver's 48-bit address");
        public final Field LENGTH = field("Length", 64, 32, "segment bytes, >= 1");

        private Segment() {
            super("segment", 8 * Chpp.SEGMENT_BYTES, Place.ALONE);
        }
    }
}
