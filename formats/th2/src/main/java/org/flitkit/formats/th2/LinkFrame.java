package org.flitkit.formats.th2;

import java.util.List;

/**
 * The frame the TH-2 link layer (LLP) sends on every cycle in each direction over the 8 bonded lanes
 * (33 bits per lane): a 198-bit payload (a flit, or the TRAIN/IDENT/BIST contents), a frame type, the
 * go-back-N sequence number, a cumulative ACK with a NAK flag, one VC's cumulative credit count, and a
 * CRC-32C over everything else. Bit 0 is sent first. The choices are explained in docs/th2-link.md.
 * Spec: the TH-2 management spec, functions 2 and 6 and "Hardware primitives" (paper section 3.1).
 */
public final class LinkFrame extends Format {

    /** Frame width: 8 lanes x 33 bits. */
    public static final int BITS = 264;
    /** Lanes bonded into one port. */
    public static final int LANES = 8;
    /** Gb/s per lane. */
    public static final double LANE_GBPS = 14.0;
    /** Width of the sequence, ACK and credit-count fields (all counted modulo 2^8). */
    public static final int SEQ_BITS = 8;
    public static final int CREDIT_BITS = 8;
    public static final int VC_BITS = 3;
    public static final int TYPE_BITS = 6;
    /** Bits covered by the CRC: everything below the CRC field (29 whole bytes). */
    public static final int CRC_COVERED_BITS = 232;

    /** The one frame layout. */
    public static final LinkFrame FRAME = new LinkFrame();
    /** The payload of a TRAIN frame. */
    public static final Train TRAIN = new Train();
    /** The payload of an IDENT frame (the same bits as the NMA identity word, without its valid bit). */
    public static final Ident IDENT = new Ident();
    /** The payload of a BIST frame and the BIST flags carried in its Seq field. */
    public static final Bist BIST = new Bist();
    /** Every link-layer format, for the generated docs. */
    public static final List<Format> ALL = List.of(FRAME, TRAIN, IDENT, BIST);

    public final Field PAYLOAD = field("Payload", 0, Th2.FLIT_BITS, "FLIT: the flit; TRAIN, IDENT, BIST: see their payload tables; IDLE: zero");
    public final Field TYPE = field("Type", 198, TYPE_BITS, "frame type code (see link frame types); any two codes differ in at least 3 bits");
    public final Field SEQ = field("Seq", 204, SEQ_BITS, "FLIT: sequence number mod 256; BIST: the BIST flags; other types: 0");
    public final Field ACK = field("Ack", 212, SEQ_BITS, "cumulative ACK: the sequence number the sender expects next (every earlier FLIT frame was received)");
    public final Field NAK = field("Nak", 220, 1, "1 once per error episode: a bad or out-of-order frame arrived, resend from Ack");
    public final Field CREDIT_VC = field("CreditVC", 221, VC_BITS, "the VC whose credit count this frame carries (rotates over the VCs, one per frame)");
    public final Field CREDIT_COUNT = field("CreditCount", 224, CREDIT_BITS, "cumulative count, mod 256, of input-buffer slots of CreditVC the sender has freed since reset");
    public final Field CRC = field("CRC", 232, 32, "CRC-32C of bits 231:0 (29 little-endian bytes)");

    private LinkFrame() {
        super("link_frame", BITS, Place.ALONE);
    }

    /** Frame types; the codes are pairwise at Hamming distance >= 3 and at distance >= 3 from all-zero. */
    public enum Type implements Coded {
        IDLE(0b000111, "nothing to send: carries ACK, NAK and credits only"),
        FLIT(0b011001, "one flit, sequenced and kept for replay until acknowledged"),
        TRAIN(0b101010, "link training while the link is down (handshake)"),
        IDENT(0b110100, "this end's identity (chip type, chip ID, port)"),
        BIST(0b111111, "one PRBS-31 test frame of the link BIST");

        private final int code;
        private final String description;

        Type(int code, String description) {
            this.code = code;
            this.description = description;
        }

        @Override
        public int code() {
            return code;
        }

        public String description() {
            return description;
        }

        /** The type whose code is {@code code} exactly, or null. */
        public static Type exact(long code) {
            for (Type t : values()) {
                if (t.code == code) {
                    return t;
                }
            }
            return null;
        }

        /** The type whose code is within one bit of {@code code} (a single bit error corrected), or null. */
        public static Type nearest(long code) {
            for (Type t : values()) {
                if (Long.bitCount((t.code ^ code) & ((1 << TYPE_BITS) - 1)) <= 1) {
                    return t;
                }
            }
            return null;
        }
    }

    /** The payload of a TRAIN frame. */
    public static final class Train extends Format {
        public final Field HEARD = field("Heard", 0, 1, "1: the sender has received a good frame from this end since its link went down (handshake)");
        public final Field LANES_OK = field("Lanes", 1, LANES, "lanes the sender uses, one bit per lane (always all 8 in this model)");

        private Train() {
            super("train_payload", Th2.FLIT_BITS, Place.ALONE);
        }
    }

    /** The payload of an IDENT frame: the identity word's bits 31:0 (NmaRegisters.identity). */
    public static final class Ident extends Format {
        public final Field CHIP_TYPE = field("ChipType", 0, 2, "sender's chip type: 0 = NIC, 1 = NRC");
        public final Field PORT = field("Port", 8, 5, "sender's port number");
        public final Field CHIP_ID = field("ChipID", 16, Th2.CHIP_ID_BITS, "sender's chip ID (0xFFFF until configured)");

        private Ident() {
            super("ident_payload", Th2.FLIT_BITS, Place.ALONE);
        }
    }

    /** A BIST frame: 198 PRBS-31 bits in the payload; the Seq field carries its flags. */
    public static final class Bist extends Format {
        public final Field PRBS = field("PRBS", 0, Th2.FLIT_BITS, "PRBS-31 (x^31 + x^28 + 1) output bits, first bit at bit 0; continues from frame to frame");

        private Bist() {
            super("bist_payload", Th2.FLIT_BITS, Place.ALONE);
        }
    }

    /** Bit 0 of the Seq field of a BIST frame: first frame of a BIST run (the checker restarts its counts). */
    public static final int BIST_FIRST = 1;

    /** The CRC-32C of a frame's covered bits (the CRC field itself is ignored). */
    public static int crcOf(BitVector frame) {
        if (frame.width() != BITS) {
            throw new IllegalArgumentException("a link frame is " + BITS + " bits, got " + frame.width());
        }
        return Crc32c.compute(frame.slice(0, CRC_COVERED_BITS));
    }

    /** {@code frame} with its CRC field filled in. */
    public static BitVector withCrc(BitVector frame) {
        return frame.with(FRAME.CRC, Integer.toUnsignedLong(crcOf(frame)));
    }

    /** True when the frame's CRC field matches its contents. */
    public static boolean crcGood(BitVector frame) {
        return frame.get(FRAME.CRC) == Integer.toUnsignedLong(crcOf(frame));
    }

    /** Core clock in Hz at one frame per cycle per direction over all lanes. */
    public static double clockHz() {
        return LANES * LANE_GBPS * 1e9 / BITS;
    }
}
