package org.flitkit.rtl.pcie;

/**
 * Constants of the PCIe-like host interface a NIC model sees: 64-byte data beats, 8-bit tags, completion
 * status codes as in the PCIe base specification's Completion Status field. The host end is
 * {@code org.flitkit.host.PcieHost} (testbench side). Decisions: docs/host-pcie.md.
 */
public final class Pcie {
    /** Bytes per data beat of a request or completion (512 bits). */
    public static final int BEAT_BYTES = 64;
    public static final int BEAT_BITS = 8 * BEAT_BYTES;
    public static final int TAG_BITS = 8;
    public static final int ADDR_BITS = 64;
    /** Request length field: 1..4096 bytes. */
    public static final int LEN_BITS = 13;
    /** Host register (BAR) byte address width. */
    public static final int MMIO_ADDR_BITS = 24;
    public static final int STATUS_BITS = 3;
    /** Completion status: successful completion. */
    public static final int SC = 0;
    /** Completion status: unsupported request. */
    public static final int UR = 1;
    /** Completion status: completer abort. */
    public static final int CA = 4;

    private Pcie() {
    }
}
