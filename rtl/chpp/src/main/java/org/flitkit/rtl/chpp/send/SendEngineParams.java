package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;

/**
 * Sizes and identities of the send engine's descriptor stages ({@link DescriptorRead}, {@link DescriptorExtract}),
 * kept apart from {@link ChppParams} (docs/chpp-send-engine.md, decisions; spec 30-chpp-dma.md, "Engine
 * structure"): how many descriptor reads may be outstanding, and what the GET packet's header says about the sender.
 *
 * @param slots       descriptor reads in flight at once, each with a 4096-byte reassembly buffer (1..32)
 * @param processor   this NIC's processor number in the super-node (SRC_ID bits 7:5), 0..7
 * @param requesterBusDevice PCIe bus (15:8) and device (7:3) of the Requester ID; the function fills bits 2:0
 * @param getTc       traffic class of GET packets (their own virtual channel against the GET/PUT deadlock), 0..7
 * @param maxReadRequest PCIe Max_Read_Request_Size in bytes (a power of two, 64..4096; PCIe's default 512): a longer
 *                    descriptor is fetched by several reads, each with its own tag
 * @param mtu         the packer's largest PUT payload in bytes (a power of two, 16..4096; default 128, the paper's
 *                    real-system MTU, section 5.2): a PUT or chain is cut into packets of at most this many bytes
 */
public record SendEngineParams(int slots, int processor, int requesterBusDevice, int getTc, int maxReadRequest, int mtu) {
    /** Largest slot count: one slot per tag of the base 5-bit tag field is more than a descriptor stage needs. */
    public static final int MAX_SLOTS = 32;

    public SendEngineParams {
        if (slots < 1 || slots > MAX_SLOTS) {
            throw new IllegalArgumentException("slots " + slots + " outside 1.." + MAX_SLOTS
                    + " (each slot is a 4096-byte reassembly buffer)");
        }
        if (processor < 0 || processor > 7) {
            throw new IllegalArgumentException("processor " + processor + " outside 0..7 (SRC_ID has 3 processor bits)");
        }
        if (requesterBusDevice < 0 || requesterBusDevice > 0xFFFF || (requesterBusDevice & 7) != 0) {
            throw new IllegalArgumentException(String.format("requesterBusDevice 0x%X is not a 16-bit bus/device with function bits 2:0 zero",
                    requesterBusDevice));
        }
        if (maxReadRequest < 64 || maxReadRequest > 4096 || Integer.bitCount(maxReadRequest) != 1) {
            throw new IllegalArgumentException("maxReadRequest " + maxReadRequest
                    + " is not a PCIe Max_Read_Request_Size (a power of two, 64..4096 bytes; 128..4096 in the specification, 64 for tests)");
        }
        if (getTc < 0 || getTc > 7) {
            throw new IllegalArgumentException("getTc " + getTc + " outside 0..7 (PCIe traffic class is 3 bits)");
        }
        if (mtu < MIN_MTU || mtu > MAX_MTU || Integer.bitCount(mtu) != 1) {
            throw new IllegalArgumentException("mtu " + mtu + " is not a power of two in " + MIN_MTU + ".." + MAX_MTU
                    + " bytes (one 16-byte bus beat up to the largest payload, 4096)");
        }
    }

    /** Smallest MTU: one 16-byte beat of the 128-bit bus. */
    public static final int MIN_MTU = 16;
    /** Largest MTU: the formats' largest payload. */
    public static final int MAX_MTU = 4096;
    /** The paper's MTU of the real system (section 5.2), where PUT bandwidth peaks (figure 16). */
    public static final int DEFAULT_MTU = 128;

    /** 4 descriptors in flight, processor 0, bus 1 device 0, GET on TC 1, 512-byte read requests (PCIe's default), MTU 128. */
    public static SendEngineParams defaults() {
        return new SendEngineParams(4, 0, 0x0100, 1, 512, DEFAULT_MTU);
    }

    /** The same with SRC_ID processor {@code p} (each engine of a controller is one processor's). */
    public SendEngineParams withProcessor(int p) {
        return new SendEngineParams(slots, p, requesterBusDevice, getTc, maxReadRequest, mtu);
    }

    public SendEngineParams withSlots(int n) {
        return new SendEngineParams(n, processor, requesterBusDevice, getTc, maxReadRequest, mtu);
    }

    public SendEngineParams withMaxReadRequest(int bytes) {
        return new SendEngineParams(slots, processor, requesterBusDevice, getTc, bytes, mtu);
    }

    public SendEngineParams withMtu(int bytes) {
        return new SendEngineParams(slots, processor, requesterBusDevice, getTc, maxReadRequest, bytes);
    }
}
