package org.flitkit.rtl.pcie;

/**
 * Constants of the PCIe-like host interface a NIC model sees: data beats of 64 bytes for the TH-2 NIC and XUD
 * models (the {@code BEAT_*} constants) or 16/32 bytes for a narrower bus (the cHPP NIC's 128-bit bus), 8-bit tags,
 * completion status codes as in the PCIe base specification's Completion Status field. The host end is
 * {@code org.flitkit.env.host.PcieHost} (testbench side). Decisions: docs/host-pcie.md.
 */
public final class Pcie {
    /** Bytes per data beat of the TH-2 NIC and XUD models (512 bits); the no-argument bundles use it. */
    public static final int BEAT_BYTES = 64;
    public static final int BEAT_BITS = 8 * BEAT_BYTES;
    /** Bytes per data beat of the cHPP NIC's 128-bit internal bus. */
    public static final int CHPP_BEAT_BYTES = 16;
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

    /**
     * {@code beatBytes} if it is a supported beat size (16, 32 or 64 bytes: a 128-, 256- or 512-bit data bus),
     * else an {@link IllegalArgumentException} that names the sizes.
     */
    public static int checkBeatBytes(int beatBytes) {
        if (beatBytes != 16 && beatBytes != 32 && beatBytes != 64) {
            throw new IllegalArgumentException("PCIe data beat must be 16, 32 or 64 bytes (a 128-, 256- or 512-bit bus), got " + beatBytes);
        }
        return beatBytes;
    }

    /** Data bits of a beat of {@code beatBytes} bytes. */
    public static int beatBits(int beatBytes) {
        return 8 * checkBeatBytes(beatBytes);
    }

    /** Width of a completion's {@code bytes} field for {@code beatBytes}-byte beats: holds 0..beatBytes (7 bits at 64). */
    public static int beatCountBits(int beatBytes) {
        return Integer.numberOfTrailingZeros(checkBeatBytes(beatBytes)) + 1;
    }

    /** Beats of a {@code len}-byte write at {@code beatBytes} bytes per beat: ceil(len / beatBytes). */
    public static int beatsOf(int len, int beatBytes) {
        return (len + beatBytes - 1) / checkBeatBytes(beatBytes);
    }
}
