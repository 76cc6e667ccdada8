package org.flitkit.rtl.chpp.receive;

/**
 * Elaboration parameters of one {@link CompletionRing} (paper section 4.2: circular completion rings in host
 * memory with a flow-control counter): {@code entries} ring slots of 16 bytes (a power of two, 2..65536) and the
 * byte offset of the ring's two 64-bit registers in the function's BAR. docs/chpp-receive-engine.md.
 */
public record CompletionRingParams(int entries, int mmioOffset) {
    /** Largest ring: 65536 entries of 16 bytes = 1 MB of host memory. */
    public static final int MAX_ENTRIES = 1 << 16;
    /** Register block: base address at +0, consumer index at +8. */
    public static final int REG_BASE = 0;
    public static final int REG_CONSUMER = 8;
    /** Bytes of one ring's register block (the next ring's registers follow). */
    public static final int STRIDE = 16;

    public CompletionRingParams {
        if (entries < 2 || entries > MAX_ENTRIES || Integer.bitCount(entries) != 1) {
            throw new IllegalArgumentException("CompletionRing: entries must be a power of two in 2.." + MAX_ENTRIES
                    + " (the index wraps by dropping its top bit), got " + entries);
        }
        if (mmioOffset < 0 || mmioOffset % 16 != 0 || mmioOffset + 16 > (1 << org.flitkit.rtl.pcie.Pcie.MMIO_ADDR_BITS)) {
            throw new IllegalArgumentException("CompletionRing: mmioOffset must be 16-byte aligned and leave its two"
                    + " registers inside the " + org.flitkit.rtl.pcie.Pcie.MMIO_ADDR_BITS + "-bit BAR, got " + mmioOffset);
        }
    }

    /** Bits of the free-running index: log2(entries) for the slot plus one lap bit. */
    public int indexBits() {
        return Integer.numberOfTrailingZeros(entries) + 1;
    }
}
