package org.flitkit.formats.th2;

import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Coded;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * The frame the TH-2 link layer (LLP) sends in each direction over the bonded lanes (33 bits per lane; one
 * frame per cycle on 8 lanes, one per 8/w cycles on w): a 198-bit payload (a flit, or the IDENT/BIST contents),
 * a frame type, the go-back-N sequence number, a cumulative ACK with a NAK flag, one VC's cumulative credit
 * count, and a CRC-32C over everything else; and the per-lane training word sent while the link is down.
 * Bit 0 is sent first. The choices are explained in docs/th2-link.md.
 * Spec: the TH-2 management spec, functions 2 and 6 and "Hardware primitives" (paper section 3.1).
 */
public final class LinkFrame extends Format {

    /** Frame width: 8 lanes x 33 bits. */
    public static final int BITS = 264;
    /** Lanes bonded into one port. */
    public static final int LANES = 8;
    /** Bits each lane carries per cycle: lane i carries frame bits [33i+32 : 33i] at full width. */
    public static final int LANE_BITS = BITS / LANES;
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
    /** The training word each lane carries on every cycle while the link is down. */
    public static final TrainWord TRAIN = new TrainWord();
    /** The payload of an IDENT frame (the same bits as the NMA identity word, without its valid bit). */
    public static final Ident IDENT = new Ident();
    /** The payload of a BIST frame and the BIST flags carried in its Seq field. */
    public static final Bist BIST = new Bist();
    /** Every link-layer format, for the generated docs. */
    public static final List<Format> ALL = List.of(FRAME, TRAIN, IDENT, BIST);

    public final Field PAYLOAD = field("Payload", 0, Th2.FLIT_BITS, "FLIT: the flit; IDENT, BIST: see their payload tables; IDLE: zero");
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

    /**
     * The 33-bit word every lane carries on every cycle while the link is down: a constant, the lane's own number
     * and a CRC-8 let the receiver tell a working lane from a dead, noisy or swapped one; Heard and Lanes carry
     * the handshake and the lanes this end receives well, from which both ends derive the same width.
     */
    public static final class TrainWord extends Format {
        public final Field MAGIC = field("Magic", 0, 13, "constant 0x" + Integer.toHexString(TRAIN_MAGIC).toUpperCase() + " (a dead lane's zeros never pass for a word)");
        public final Field LANE = field("Lane", 13, 3, "the number of the lane the word is sent on (a swapped lane fails the check)");
        public final Field HEARD = field("Heard", 16, 1, "1: the sender has chosen the lanes it receives well (the Lanes field), after a " + TRAIN_WINDOW + "-cycle window");
        public final Field LANES_OK = field("Lanes", 17, LANES, "with Heard: lanes on which the sender received at least " + TRAIN_THRESHOLD + " of " + TRAIN_WINDOW + " valid words, one bit per lane");
        public final Field CHECK = field("Check", 25, 8, "CRC-8 (x^8 + x^2 + x + 1, initial 0xFF, bit 0 first) of bits 24:0");

        private TrainWord() {
            super("train_word", LANE_BITS, Place.ALONE);
        }
    }

    /** Magic of a training word (13 bits, about half ones). */
    public static final int TRAIN_MAGIC = 0x15A7;
    /** Cycles of valid-word counting before an end chooses its lanes. */
    public static final int TRAIN_WINDOW = 16;
    /** Valid words in the window that make a lane good. */
    public static final int TRAIN_THRESHOLD = 12;
    /** Heard = 1 words an end sends after learning the peer's lanes, before it goes up. */
    public static final int TRAIN_CONFIRM = 8;

    /** CRC-8 (polynomial 0x07, initial 0xFF, bit 0 first) of the low 25 bits of a training word. */
    public static int trainCheck(long bits25) {
        int crc = 0xFF;
        for (int i = 0; i < 25; i++) {
            int fb = (crc >>> 7 & 1) ^ (int) (bits25 >>> i & 1);
            crc = crc << 1 & 0xFF;
            if (fb != 0) {
                crc ^= 0x07;
            }
        }
        return crc;
    }

    /** The training word for {@code lane}, with its check. */
    public static long trainWord(int lane, boolean heard, int lanesOk) {
        long w = TRAIN_MAGIC | (long) (lane & 7) << 13 | (heard ? 1L : 0L) << 16 | (long) (lanesOk & 0xFF) << 17;
        return w | (long) trainCheck(w) << 25;
    }

    /** True when {@code word} is a valid training word for {@code lane}. */
    public static boolean trainValid(long word, int lane) {
        long low = word & ((1L << 25) - 1);
        return (word & 0x1FFF) == TRAIN_MAGIC && (word >>> 13 & 7) == lane && (word >>> 25 & 0xFF) == trainCheck(low);
    }

    /** Lanes of a link whose two directions can use {@code lanesAB} and {@code lanesBA}: 8, 4, 2, 1 or 0. */
    public static int widthFor(int lanesAB, int lanesBA) {
        int n = Math.min(Integer.bitCount(lanesAB & 0xFF), Integer.bitCount(lanesBA & 0xFF));
        return n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : n;
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
