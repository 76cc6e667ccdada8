package org.flitkit.rtl.mnc;

/**
 * Sizes and policy of one MNC node, fixed at elaboration (multi-rail paper, section 2.3 and 2.4; the choices
 * where the paper is silent are in docs/mnc.md, "Decisions").
 *
 * @param rails            NICs (links) per node, 1..4 ({@code MAXLINKNUM} of the paper's {@code NICStatus})
 * @param policy           link allocation policy (paper section 2.3.1)
 * @param stripeThreshold  messages of at least this many bytes are striped over the rails (paper section 2.4: short
 *                         messages use one link); at least 256 so that every chunk is non-empty
 * @param packetBytes      the NIC's packet (SRAM buffer) size; the SDMA engine moves a chunk in packets of at most this
 *                         many bytes (GM: 4 KB); a power of two in 64..4096
 * @param sendSlots        packet buffers of the send side in NIC SRAM (SDMA fills one while SEND drains another), 1..4
 * @param recvSlots        packet buffers of the receive side in NIC SRAM (RECV fills one while RDMA drains another), 1..4
 * @param packetCycles     firmware cycles the SEND and RECV engines spend on each packet (route, header, checks)
 * @param softwareCycles   0: dispatch in hardware (SReq/SAck leave ahead of queued data, the chunks follow the SAck at
 *                         once); more: the paper's software dispatch, where the SReq is posted through the NIC's send
 *                         queue behind the data already queued there and the host library needs this many cycles
 *                         from the SAck's arrival to posting the chunks (SAck up through RDMA, polling, link choice)
 */
public record MncParams(int rails, Policy policy, int stripeThreshold, int packetBytes, int sendSlots, int recvSlots,
        int packetCycles, int softwareCycles) {
    /** Bits of a node number: up to 16 nodes. */
    public static final int NODE_BITS = 4;
    /** Bits of a rail number: up to 4 rails. */
    public static final int RAIL_BITS = 2;
    /** Bits of a flow (a port pair of two processes). */
    public static final int FLOW_BITS = 4;
    /** Bits of a message's sequence number within its flow. */
    public static final int SEQ_BITS = 16;
    /** Bits of a chunk count (1..4). */
    public static final int CHUNK_BITS = 3;
    /** Host addresses (the registered DMA buffers). */
    public static final int ADDR_BITS = 32;
    /** Message length in bytes (up to 16 MB). */
    public static final int LEN_BITS = 24;
    /** Packet length in bytes (up to 4096). */
    public static final int PLEN_BITS = 13;
    /** Bits of a packet-buffer index. */
    public static final int SLOT_BITS = 2;
    /** Bits of the per-packet firmware cycle counter. */
    public static final int CYCLE_BITS = 12;

    /** Link allocation (paper section 2.3.1). */
    public enum Policy {
        /** every link sends and receives; FREE first, else round robin; long messages striped (MNC) */
        DYNAMIC,
        /** each flow is bound to link {@code flow mod rails} at both ends; no choice, no striping */
        STATIC,
        /** the lower half of the rails only send, the upper half only receive; FREE first among them; no striping */
        ONE_DIRECTION
    }

    public MncParams {
        if (rails < 1 || rails > 4) {
            throw new IllegalArgumentException("rails must be in 1..4, got " + rails);
        }
        if (policy == null) {
            throw new IllegalArgumentException("policy must be one of DYNAMIC, STATIC, ONE_DIRECTION");
        }
        if (stripeThreshold < 256 || stripeThreshold >= 1 << LEN_BITS) {
            throw new IllegalArgumentException("stripeThreshold must be in 256..2^24-1 bytes, got " + stripeThreshold);
        }
        if (packetBytes < 64 || packetBytes > 4096 || Integer.bitCount(packetBytes) != 1) {
            throw new IllegalArgumentException("packetBytes must be a power of two in 64..4096, got " + packetBytes);
        }
        if (sendSlots < 1 || sendSlots > 4 || recvSlots < 1 || recvSlots > 4) {
            throw new IllegalArgumentException("sendSlots and recvSlots must be in 1..4, got " + sendSlots + " and " + recvSlots);
        }
        if (packetCycles < 0 || packetCycles >= 1 << CYCLE_BITS) {
            throw new IllegalArgumentException("packetCycles must be in 0.." + ((1 << CYCLE_BITS) - 1) + ", got " + packetCycles);
        }
        if (softwareCycles < 0 || softwareCycles >= 1 << CYCLE_BITS) {
            throw new IllegalArgumentException("softwareCycles must be in 0.." + ((1 << CYCLE_BITS) - 1) + ", got " + softwareCycles);
        }
    }

    /**
     * {@code rails} rails, dynamic dispatch, striping from 16 KB, 4 KB packets, two buffers each way and no firmware
     * cycles per packet (the platform's calibrated value is in the environment).
     */
    public static MncParams of(int rails) {
        return new MncParams(rails, Policy.DYNAMIC, 16 * 1024, 4096, 2, 2, 0, 0);
    }

    public MncParams withPolicy(Policy p) {
        return new MncParams(rails, p, stripeThreshold, packetBytes, sendSlots, recvSlots, packetCycles, softwareCycles);
    }

    public MncParams withThreshold(int bytes) {
        return new MncParams(rails, policy, bytes, packetBytes, sendSlots, recvSlots, packetCycles, softwareCycles);
    }

    public MncParams withPacketCycles(int cycles) {
        return new MncParams(rails, policy, stripeThreshold, packetBytes, sendSlots, recvSlots, cycles, softwareCycles);
    }

    public MncParams withRails(int n) {
        return new MncParams(n, policy, stripeThreshold, packetBytes, sendSlots, recvSlots, packetCycles, softwareCycles);
    }

    /** The paper's software dispatch with {@code cycles} of host time per striped message (0: dispatch in hardware). */
    public MncParams withSoftwareDispatch(int cycles) {
        return new MncParams(rails, policy, stripeThreshold, packetBytes, sendSlots, recvSlots, packetCycles, cycles);
    }

    public boolean softwareDispatch() {
        return softwareCycles > 0;
    }

    /** Rails a node may send on: a bit per rail. */
    public int sendMask() {
        return policy == Policy.ONE_DIRECTION && rails > 1 ? (1 << (rails / 2)) - 1 : (1 << rails) - 1;
    }

    /** Rails a node may receive on: a bit per rail. */
    public int recvMask() {
        return policy == Policy.ONE_DIRECTION && rails > 1 ? ((1 << rails) - 1) & ~sendMask() : (1 << rails) - 1;
    }

    /** Whether long messages are striped (and receive links asked for with SReq/SAck): dynamic policy, two rails or more. */
    public boolean stripes() {
        return policy == Policy.DYNAMIC && rails > 1;
    }
}
