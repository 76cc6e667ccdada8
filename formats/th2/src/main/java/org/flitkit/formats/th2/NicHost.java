package org.flitkit.formats.th2;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * What host software and the NIC share outside the packets: the NIC's BAR (per-VP windows with queue
 * configuration, doorbells and the PIO VPs' hardware descriptor queue), and the host-memory rings of each VP
 * (SDQ of 64-byte descriptors, MPQ of 128-byte entries, EQ of 16-byte events). The paper names the queues
 * (TH-2 management spec, "The system" and NIC flows (1) and (4)) but not their layout: this is the project's
 * one definition, used by the NIC RTL and the host API alike; docs/th2-nic.md explains it.
 */
public final class NicHost {
    /** VPs 0..7 are PIO VPs (hardware descriptor queues written through the BAR), 8..39 DMA VPs (SDQs). */
    public static final int PIO_VPS = 8;
    /** Descriptors one PIO VP's hardware queue holds. */
    public static final int HDQ_DEPTH = 4;

    /** Each VP has a 4 KB window in the BAR at {@code vp << VP_WINDOW_BITS}. */
    public static final int VP_WINDOW_BITS = 12;
    /** RW: SDQ base address (4 KB aligned) | log2(entries) in bits 3:0 (0 = no queue). DMA VPs only. */
    public static final int SDQ_BASE = 0x00;
    /** RW: MPQ base address (4 KB aligned) | log2(entries). */
    public static final int MPQ_BASE = 0x08;
    /** RW: EQ base address (4 KB aligned) | log2(entries). */
    public static final int EQ_BASE = 0x10;
    /** W: doorbell, the SDQ producer index (free-running, 16 bits): descriptors up to it are ready. */
    public static final int SDQ_TAIL = 0x18;
    /** W: MPQ consumer index: entries before it are free again. */
    public static final int MPQ_HEAD = 0x20;
    /** W: EQ consumer index. */
    public static final int EQ_HEAD = 0x28;
    /** W: descriptor qwords 0..7 of a PIO VP's next hardware-queue slot; writing qword 7 submits it. */
    public static final int HDQ_WORD0 = 0x40;
    public static final int DESCRIPTOR_QWORDS = Th2.DESCRIPTOR_BITS / 64;

    /** Queue indexes are 16 bits, free-running; a ring has 2^1..2^15 entries. */
    public static final int INDEX_BITS = 16;
    public static final int LOG2_BITS = 4;
    public static final int MAX_LOG2_ENTRIES = 15;
    public static final int QUEUE_ALIGN = 4096;

    public static final int SDQ_ENTRY_BYTES = 64;
    public static final int MPQ_ENTRY_BYTES = 128;
    public static final int EQ_ENTRY_BYTES = 16;

    /** Interrupt causes on the NIC's interrupt output (one message per interrupt, with the VP). */
    public static final int IRQ_COMPLETION = 1;
    public static final int IRQ_MPQ = 2;

    /** An MPQ entry: the packet as received (CRC included, HopPtr as it arrived) and the phase bit, in the last byte so it lands last. */
    public static final MpqEntry MPQ_ENTRY = new MpqEntry();
    /** An EQ event. */
    public static final Event EVENT = new Event();

    private NicHost() {
    }

    /** BAR byte address of register {@code offset} in VP {@code vp}'s window. */
    public static long bar(int vp, int offset) {
        Checks.vp("VP", vp);
        return ((long) vp << VP_WINDOW_BITS) | offset;
    }

    /** A queue base register value: {@code addr} (4 KB aligned) with 2^{@code log2} entries. */
    public static long queueBase(long addr, int log2) {
        if (addr % QUEUE_ALIGN != 0 || addr < 0) {
            throw new IllegalArgumentException("queue base 0x" + Long.toHexString(addr) + " is not 4 KB aligned");
        }
        Checks.range("log2(entries)", log2, 1, MAX_LOG2_ENTRIES);
        return addr | log2;
    }

    /** The phase an entry written at free-running index {@code index} carries: 1 on the first lap. */
    public static int phase(int index, int log2) {
        return ((index >>> log2) & 1) ^ 1;
    }

    public static boolean isPio(int vp) {
        return vp < PIO_VPS;
    }

    /** MPQ entry fields (1024 bits, byte i at bits 8i+7..8i). */
    public static final class MpqEntry extends Format {
        public final Field PACKET = field("Packet", 0, Th2.PACKET_BITS, "the management packet as received, 4 flits, head flit at bit 0");
        public final Field PHASE = field("Phase", 8 * MPQ_ENTRY_BYTES - 8, 1, "1 on odd laps of the ring (the first is lap 1), 0 on even: the entry is new when it matches the reader's lap");

        private MpqEntry() {
            super("mpq_entry", 8 * MPQ_ENTRY_BYTES, Place.ALONE);
        }
    }

    /** EQ event fields (128 bits). */
    public static final class Event extends Format {
        public final Field PHASE = field("Phase", 0, 1, "as in an MPQ entry");
        public final Field TYPE = field("Type", 8, 8, "event type (NicEvent codes)");
        public final Field VP = field("VP", 16, 6, "the VP whose queue the event is about");
        public final Field CODE = field("Code", 24, 8, "DESC_ERROR: the DescError code; FETCH_ERROR: the completion status");
        public final Field TRANSACTION_ID = field("TransactionID", 32, 16, "the descriptor's or the packet's TransactionID (0 for FETCH_ERROR)");
        public final Field INDEX = field("Index", 48, INDEX_BITS, "MP_ARRIVED: MPQ index of the entry; SEND_DONE, DESC_ERROR, FETCH_ERROR: the descriptor's queue index");
        public final Field TIMESTAMP = field("Timestamp", 64, 64, "NIC cycle when the event was built");

        private Event() {
            super("eq_event", 8 * EQ_ENTRY_BYTES, Place.ALONE);
        }
    }
}
