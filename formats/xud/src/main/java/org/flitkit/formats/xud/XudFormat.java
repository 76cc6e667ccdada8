package org.flitkit.formats.xud;

import java.math.BigInteger;
import java.util.List;
import java.util.zip.CRC32;
import org.flitkit.formats.core.Field;

/**
 * The XUD wire and host formats, defined once for the RTL, the environment and the software layer: LRH,
 * BTH (IBA vol. 1 sections 7.7 and 9.2), the 16-byte XUDETH carrying {@code win_id}/{@code win_msn}, AETH,
 * the ICRC, and the two completion entries. Paper: "XUD: 一种扩展的不可靠数据报传输服务", section 2.1
 * (packet structure, figs. 3 and 4); bit positions not given by the paper are chosen in docs/xud.md, and the
 * tables are in docs/xud-formats.md.
 *
 * <p>A packet travels as one {@value #CONTAINER_BITS}-bit container: byte 0 (the first on the wire) in
 * the most significant bits. Host structures (CQEs, DMA data) are little-endian words: byte k in bits
 * {@code [8k+7:8k]}.
 */
public final class XudFormat {
    private XudFormat() {
    }

    /** A network-order field: {@code bitOffset} bits (from the MSB) into byte {@code byteOffset} of the container. */
    static Field net(String name, int byteOffset, int bitOffset, int width) {
        return new Field(name, CONTAINER_BITS - 8 * byteOffset - bitOffset - width, width);
    }

    /** Packet container: LRH 8 + BTH 12 + XUDETH/AETH 16 + payload 32 + ICRC 4 bytes. */
    public static final int CONTAINER_BYTES = 72;
    public static final int CONTAINER_BITS = 8 * CONTAINER_BYTES;
    /** The model's MTU: payload bytes of one XUD message (the paper: one MTU per message, section 5). */
    public static final int MTU_BYTES = 32;
    public static final int PAYLOAD_OFFSET = 36;
    /** 4-byte words of a data packet without payload (LRH 2, BTH 3, XUDETH 4, ICRC 1) and of an ACK (LRH, BTH, AETH, ICRC). */
    public static final int DATA_HEADER_WORDS = 10;
    public static final int ACK_WORDS = 7;
    public static final int PSN_BITS = 24;
    public static final int PSN_MOD = 1 << PSN_BITS;

    // ---- LRH, bytes 0..7 (IBA 7.7)
    public static final Field VL = net("VL", 0, 0, 4);
    public static final Field LVER = net("LVer", 0, 4, 4);
    public static final Field SL = net("SL", 1, 0, 4);
    public static final Field LNH = net("LNH", 1, 6, 2);
    public static final Field DLID = net("DLID", 2, 0, 16);
    public static final Field PKT_LEN = net("PktLen", 4, 5, 11);
    public static final Field SLID = net("SLID", 6, 0, 16);
    // ---- BTH, bytes 8..19 (IBA 9.2)
    public static final Field OPCODE = net("OpCode", 8, 0, 8);
    public static final Field SE = net("SE", 9, 0, 1);
    public static final Field MIG = net("M", 9, 1, 1);
    public static final Field PAD_CNT = net("PadCnt", 9, 2, 2);
    public static final Field TVER = net("TVer", 9, 4, 4);
    public static final Field P_KEY = net("P_Key", 10, 0, 16);
    public static final Field DEST_QP = net("DestQP", 13, 0, 24);
    public static final Field ACK_REQ = net("A", 16, 0, 1);
    public static final Field PSN = net("PSN", 17, 0, 24);
    // ---- XUDETH, bytes 20..35: the UD DETH (Q_Key, SrcQP) extended by the window fields
    public static final Field XUDETH = net("XUDETH", 20, 0, 128);
    public static final Field Q_KEY = net("Q_Key", 20, 0, 32);
    public static final Field SRC_QP = net("SrcQP", 25, 0, 24);
    public static final Field WIN_ID = net("win_id", 28, 0, 16);
    public static final Field WIN_MSN = net("win_msn", 32, 0, 32);
    // ---- AETH, bytes 20..23 of an ACK (IBA 9.3.5)
    public static final Field SYNDROME = net("Syndrome", 20, 0, 8);
    public static final Field MSN = net("MSN", 21, 0, 24);
    public static final Field PAYLOAD = net("payload", PAYLOAD_OFFSET, 0, 8 * MTU_BYTES);
    public static final Field ICRC = net("ICRC", 68, 0, 32);

    public static final List<Field> LRH_FIELDS = List.of(VL, LVER, SL, LNH, DLID, PKT_LEN, SLID);
    public static final List<Field> BTH_FIELDS = List.of(OPCODE, SE, MIG, PAD_CNT, TVER, P_KEY, DEST_QP, ACK_REQ, PSN);
    public static final List<Field> XUDETH_FIELDS = List.of(Q_KEY, SRC_QP, WIN_ID, WIN_MSN);
    public static final List<Field> AETH_FIELDS = List.of(SYNDROME, MSN);

    /** LNH 2: IBA local transport header follows the LRH. */
    public static final int LNH_IBA_LOCAL = 2;
    /** Opcodes in the manufacturer-specific space 0xC0-0xFF (IBA 9.2.1): XUD send-only and its acknowledge. */
    public static final int OP_XUD_SEND = 0xC4;
    public static final int OP_XUD_ACK = 0xD1;
    public static final int DEFAULT_P_KEY = 0xFFFF;

    // ---- AETH syndromes (IBA 9.3.5.1): 000xxxxx ACK, 001xxxxx RNR NAK, 011xxxxx NAK with a code
    /** ACK with the "no credit count" value 11111. */
    public static final int SYN_ACK = 0x1F;
    /** RNR NAK: no receive request was posted; timer field 0. */
    public static final int SYN_RNR = 0x20;
    public static final int SYN_NAK = 0x60;
    /** NAK codes: invalid request (bad opcode, length or QP) and remote operational error (bad ICRC). */
    public static final int NAK_INVALID_REQUEST = 1;
    public static final int NAK_REMOTE_OP_ERROR = 3;

    // ---- completion entries, 32-byte little-endian host words
    public static final int CQE_BYTES = 32;
    public static final int CQE_BITS = 8 * CQE_BYTES;
    /** Send CQE. */
    public static final Field SCQE_WR_ID = new Field("wr_id", 0, 32);
    public static final Field SCQE_STATUS = new Field("status", 32, 8);
    public static final Field SCQE_SYNDROME = new Field("syndrome", 40, 8);
    public static final Field SCQE_QP = new Field("qp", 48, 8);
    public static final Field SCQE_PSN = new Field("psn", 64, 24);
    /** Receive CQE: the XUDETH copied byte for byte (wire order), then the receive request's details. */
    public static final Field RCQE_XUDETH = new Field("xudeth", 0, 128);
    public static final Field RCQE_WR_ID = new Field("wr_id", 128, 32);
    public static final Field RCQE_BYTE_LEN = new Field("byte_len", 160, 8);
    public static final Field RCQE_SLID = new Field("slid", 176, 16);
    public static final Field RCQE_QP = new Field("qp", 192, 8);
    public static final Field RCQE_PSN = new Field("psn", 208, 24);
    /** Both CQEs: the owner bit the consumer compares with its phase (flips at every wrap of the ring). */
    public static final Field CQE_OWNER = new Field("owner", 255, 1);

    /** Send completion statuses. */
    public enum SendStatus {
        SUCCESS, TIMEOUT, LOCAL_LENGTH_ERROR, LOCAL_QP_ERROR, NAK, RNR_NAK;

        public int code() {
            return ordinal();
        }

        public static SendStatus of(long code) {
            if (code < 0 || code >= values().length) {
                throw new IllegalArgumentException("no send completion status " + code);
            }
            return values()[(int) code];
        }
    }

    // ---- software codec

    /** A data packet's fields. */
    public record DataPacket(int dlid, int slid, int destQp, int srcQp, int psn, long qKey, int winId, long winMsn, byte[] payload) {
        public DataPacket {
            if (payload.length > MTU_BYTES) {
                throw new IllegalArgumentException("payload of " + payload.length + " bytes exceeds the " + MTU_BYTES + "-byte MTU");
            }
        }

        public BigInteger encode() {
            int pad = (4 - payload.length % 4) % 4;
            BigInteger w = BigInteger.ZERO;
            w = LNH.set(w, LNH_IBA_LOCAL);
            w = DLID.set(w, dlid);
            w = PKT_LEN.set(w, DATA_HEADER_WORDS + (payload.length + pad) / 4);
            w = SLID.set(w, slid);
            w = OPCODE.set(w, OP_XUD_SEND);
            w = PAD_CNT.set(w, pad);
            w = P_KEY.set(w, DEFAULT_P_KEY);
            w = DEST_QP.set(w, destQp);
            w = ACK_REQ.set(w, 1);
            w = PSN.set(w, psn);
            w = Q_KEY.set(w, qKey);
            w = SRC_QP.set(w, srcQp);
            w = WIN_ID.set(w, winId);
            w = WIN_MSN.set(w, winMsn);
            w = PAYLOAD.set(w, payloadField(payload));
            return withIcrc(w);
        }

        public static DataPacket decode(BigInteger w) {
            int words = (int) PKT_LEN.get(w) - DATA_HEADER_WORDS;
            int len = Math.max(0, 4 * words - (int) PAD_CNT.get(w));
            byte[] all = bytesOf(PAYLOAD.getBig(w), MTU_BYTES);
            byte[] p = new byte[Math.min(len, MTU_BYTES)];
            System.arraycopy(all, 0, p, 0, p.length);
            return new DataPacket((int) DLID.get(w), (int) SLID.get(w), (int) DEST_QP.get(w), (int) SRC_QP.get(w), (int) PSN.get(w),
                    Q_KEY.get(w), (int) WIN_ID.get(w), WIN_MSN.get(w), p);
        }
    }

    /** An acknowledgement's fields: the AETH syndrome and MSN (= the acknowledged PSN). */
    public record AckPacket(int dlid, int slid, int destQp, int syndrome, int msn) {
        public BigInteger encode() {
            BigInteger w = BigInteger.ZERO;
            w = LNH.set(w, LNH_IBA_LOCAL);
            w = DLID.set(w, dlid);
            w = PKT_LEN.set(w, ACK_WORDS);
            w = SLID.set(w, slid);
            w = OPCODE.set(w, OP_XUD_ACK);
            w = P_KEY.set(w, DEFAULT_P_KEY);
            w = DEST_QP.set(w, destQp);
            w = PSN.set(w, msn);
            w = SYNDROME.set(w, syndrome);
            w = MSN.set(w, msn);
            return withIcrc(w);
        }

        public static AckPacket decode(BigInteger w) {
            return new AckPacket((int) DLID.get(w), (int) SLID.get(w), (int) DEST_QP.get(w), (int) SYNDROME.get(w), (int) MSN.get(w));
        }
    }

    public static boolean isAck(BigInteger container) {
        return OPCODE.get(container) == OP_XUD_ACK;
    }

    /**
     * The ICRC of a container: CRC-32 (the IBA/Ethernet polynomial, {@link CRC32}) over bytes 0..67, the
     * ICRC field excluded. The container's unused payload bytes are zero and covered too (docs/xud.md).
     */
    public static long icrc(BigInteger container) {
        CRC32 crc = new CRC32();
        byte[] b = bytesOf(container.shiftRight(ICRC.width()), CONTAINER_BYTES - 4);
        crc.update(b, 0, b.length);
        return crc.getValue();
    }

    public static BigInteger withIcrc(BigInteger container) {
        return ICRC.set(ICRC.set(container, 0), icrc(ICRC.set(container, 0)));
    }

    public static boolean icrcOk(BigInteger container) {
        return ICRC.get(container) == icrc(container);
    }

    /** The payload bytes as the container's payload field: byte 0 in its most significant bits. */
    static BigInteger payloadField(byte[] payload) {
        byte[] all = new byte[MTU_BYTES];
        System.arraycopy(payload, 0, all, 0, payload.length);
        return new BigInteger(1, all);
    }

    /** {@code value} as {@code n} big-endian bytes (byte 0 = most significant). */
    public static byte[] bytesOf(BigInteger value, int n) {
        byte[] raw = value.toByteArray();
        byte[] out = new byte[n];
        int copy = Math.min(n, raw.length);
        System.arraycopy(raw, raw.length - copy, out, n - copy, copy);
        return out;
    }

    /** Bytes of a little-endian host word (byte k in bits [8k+7:8k]), {@code n} of them. */
    public static byte[] hostBytes(BigInteger word, int n) {
        byte[] be = bytesOf(word, n);
        byte[] le = new byte[n];
        for (int i = 0; i < n; i++) {
            le[i] = be[n - 1 - i];
        }
        return le;
    }

    /** The little-endian host word of {@code bytes} (byte k in bits [8k+7:8k]). */
    public static BigInteger hostWord(byte[] bytes) {
        byte[] be = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            be[i] = bytes[bytes.length - 1 - i];
        }
        return new BigInteger(1, be);
    }
}
