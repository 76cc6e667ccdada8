package org.flitkit.formats.chpp;

/**
 * The cHPP NIC's format constants, defined once (docs/chpp-formats.md, "Constants" and "Decisions"). Paper:
 * "一种低开销的面向节点内互连的网络接口控制器", section 3.2 (16-byte header, 0..4096-byte payload), 3.4 (NAP
 * at most 2 KB, chain DMA), 4.2 (2 KB-aligned NAP buffers), 4.3 (1 PF + 7 VFs, 4 QPs each).
 */
public final class Chpp {
    /** The hardware header: 16 bytes, PCIe-TLP-shaped (4 DW). */
    public static final int HEADER_BYTES = 16;
    public static final int HEADER_BITS = 8 * HEADER_BYTES;
    /** Payload bytes of one network packet: 0..4096. */
    public static final int MAX_PAYLOAD = 4096;
    /** Largest NAP message (immediate or indirect): 2 KB. */
    public static final int MAX_NAP = 2048;
    /** NAP receive buffers are 2 KB aligned. */
    public static final int NAP_BUFFER_ALIGN = 2048;
    /** Width of a header or descriptor Length field in bytes (0..4096 needs 13 bits). */
    public static final int LENGTH_BITS = 13;

    /** Processor number inside SRC_ID/DST_ID: 3 bits, 8 processors per super-node. */
    public static final int PROCESSOR_BITS = 3;
    /** PCIe function inside an ID: 0 = PF, 1..7 = VF1..VF7. */
    public static final int FUNCTION_BITS = 3;
    /** Queue pair inside an ID: 4 QPs per function. */
    public static final int QP_BITS = 2;
    public static final int ID_BITS = PROCESSOR_BITS + FUNCTION_BITS + QP_BITS;
    public static final int PROCESSORS = 1 << PROCESSOR_BITS;
    public static final int FUNCTIONS = 1 << FUNCTION_BITS;
    public static final int QPS = 1 << QP_BITS;

    /** The protection key compared by the receiver. */
    public static final int QP_MAGIC_BITS = 16;
    /** Remote (global) addresses carried in a header: 48 bits. */
    public static final int ADDRESS_BITS = 48;
    public static final int REQUESTER_ID_BITS = 16;
    public static final int TC_BITS = 3;

    /** PCIe Fmt/Type kept in every header: a 4-DW memory write with data (Fmt 011, Type 00000). */
    public static final int FMT_MWR_4DW = 0b011;
    public static final int TYPE_MEM = 0b00000;

    /** Descriptors, completion entries and the doorbell write are little-endian 64-bit words in host memory. */
    public static final int WORD_BYTES = 8;
    /** Common descriptor head: 2 words. */
    public static final int DESC_HEAD_BYTES = 16;
    /** Largest descriptor: one memory read (the doorbell's 13-bit length). */
    public static final int MAX_DESCRIPTOR_BYTES = 4096;
    /** A chain segment entry: address word + length word. */
    public static final int SEGMENT_BYTES = 16;
    /** Source plus destination segments of one chain descriptor: (4096 - 16) / 16. */
    public static final int MAX_SEGMENTS = (MAX_DESCRIPTOR_BYTES - DESC_HEAD_BYTES) / SEGMENT_BYTES;
    /** PUT, GET and chain transfer lengths (and the send completion's byte count) are 32 bits. */
    public static final long MAX_TRANSFER = 0xFFFF_FFFFL;

    /** A completion ring entry: 16 bytes. */
    public static final int COMPLETION_BYTES = 16;

    /** Each QP's doorbell is alone in a 4 KB page of its function's doorbell window (user-level mapping). */
    public static final int DOORBELL_PAGE_BITS = 12;
    public static final int DOORBELL_PAGE = 1 << DOORBELL_PAGE_BITS;
    /** Descriptor addresses in a doorbell: 52 bits (x86-64's largest physical address), 8-byte aligned. */
    public static final int DOORBELL_ADDRESS_BITS = 52;

    private Chpp() {
    }
}
