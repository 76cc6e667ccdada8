package org.flitkit.formats.th2;

/**
 * TH-2 management-plane constants: sizes from the paper plus the few codes this project fixed.
 * Spec: the TH-2 management spec, "Management packets and descriptors"; the
 * decisions are explained in docs/th2-formats.md.
 */
public final class Th2 {

    /** Width of one link-layer flit. */
    public static final int FLIT_BITS = 198;
    /** A management packet is always 4 flits. */
    public static final int PACKET_FLITS = 4;
    public static final int PACKET_BITS = FLIT_BITS * PACKET_FLITS;
    /** Management packets travel on VC3 only (the NRC has VC0..VC5). */
    public static final int MANAGEMENT_VC = 3;
    /** Management descriptor size (what host software writes into an SDQ). */
    public static final int DESCRIPTOR_BITS = 512;
    /** Routing field {@code <HopNum, Hop0..Hop19>}, 5 bits each. */
    public static final int ROUTE_BITS = 105;
    public static final int MAX_HOPS = 20;
    /** NRC output ports are 0..23. */
    public static final int NRC_PORTS = 24;
    /** NIC virtual ports 0..39 (8 PIO + 32 DMA). */
    public static final int VP_COUNT = 40;
    /** Chip IDs are 16 bits; all ones addresses a chip whose ID is not configured yet. */
    public static final int CHIP_ID_BITS = 16;
    public static final int CHIP_ID_ANY = 0xFFFF;
    /** Width of NMPData, in the descriptor and in the packet alike. */
    public static final int NMP_DATA_BITS = 192;
    /** Relay-station data path: 20 bits, so a flit takes 10 beats and a packet 40. */
    public static final int RS_BEAT_BITS = 20;
    public static final int RS_BEATS_PER_FLIT = (FLIT_BITS + RS_BEAT_BITS - 1) / RS_BEAT_BITS;

    /** RtType codes. */
    public static final int RT_TABLE = 0;
    public static final int RT_SOURCE = 1;

    /** Transport kind of a management packet: a single (S/M = 0) MP (Type = 1) with Inst = 1. */
    public static final int TYPE_MP = 1;
    public static final boolean MANAGEMENT_SM = false;
    public static final boolean MANAGEMENT_INST = true;

    /** Flit kind codes: bit 1 = head, bit 0 = tail. */
    public static final int KIND_BODY = 0b00;
    public static final int KIND_TAIL = 0b01;
    public static final int KIND_HEAD = 0b10;

    /** Registers: 1 or 2 per packet; E2PROM bytes: 1 to 6 per packet. */
    public static final int MAX_REGISTERS = 2;
    public static final int MAX_EEPROM_BYTES = 6;
    public static final int EEPROM_ADDRESS_BITS = 16;

    private Th2() {
    }
}
