package org.flitkit.env.host;

/**
 * The host's PCIe link as the bottleneck of the DMA path (the cHPP paper's 3.2 GB/s argument, docs/host-pcie.md
 * "cHPP: 16-byte beats at 250 MHz"): each direction carries {@code bytesPerCycle} payload bytes per device cycle,
 * and every TLP also costs {@code headerCycles} before its payload and {@code processingCycles} after it. Requests
 * (posted writes and read requests) are charged on the device-to-host direction, completions on the host-to-device
 * direction; the two directions are independent (PCIe is full duplex).
 *
 * @param bytesPerCycle    payload bytes the link moves per device cycle, 1..64 (cHPP: 4 GB/s at 250 MHz = 16)
 * @param headerCycles     cycles per TLP for its header, before the payload, at least 1 (a TLP always has a header)
 * @param processingCycles cycles per TLP after the payload (the paper's "processing" cycle), 0 or more
 * @param interleaveTags   whether completion TLPs of different tags interleave on the link (round robin over the
 *                         tags with a completion ready), or go in the order the host produced them
 */
public record PcieLink(int bytesPerCycle, int headerCycles, int processingCycles, boolean interleaveTags) {
    public PcieLink {
        if (bytesPerCycle < 1 || bytesPerCycle > 64) {
            throw new IllegalArgumentException("link bytes per cycle must be in 1..64, got " + bytesPerCycle);
        }
        if (headerCycles < 1 || headerCycles > 64) {
            throw new IllegalArgumentException("TLP header cycles must be in 1..64 (every TLP has a header), got " + headerCycles);
        }
        if (processingCycles < 0 || processingCycles > 64) {
            throw new IllegalArgumentException("TLP processing cycles must be in 0..64, got " + processingCycles);
        }
    }

    /**
     * A link of {@code lanes} lanes at {@code gigaTransfersPerLane} GT/s with {@code dataBits}/{@code lineBits}
     * line coding (8/10 for PCIe 1.x and 2.0), seen from a device clock of {@code clockMhz}: its bytes per cycle,
     * which must come out whole (PCIe 2.0 x8 = 4 GB/s after 8b/10b, at 250 MHz = 16 bytes per cycle).
     */
    public static PcieLink of(int lanes, double gigaTransfersPerLane, int dataBits, int lineBits, double clockMhz, int headerCycles,
            int processingCycles, boolean interleaveTags) {
        if (lanes < 1 || !(gigaTransfersPerLane > 0) || dataBits < 1 || lineBits < dataBits || !(clockMhz > 0)) {
            throw new IllegalArgumentException("need lanes >= 1, a positive GT/s and clock, and 1 <= data bits <= line bits: " + lanes + " lanes, "
                    + gigaTransfersPerLane + " GT/s, " + dataBits + "b/" + lineBits + "b, " + clockMhz + " MHz");
        }
        double bytesPerSecond = lanes * gigaTransfersPerLane * 1e9 * dataBits / lineBits / 8;
        double perCycle = bytesPerSecond / (clockMhz * 1e6);
        long whole = Math.round(perCycle);
        if (Math.abs(perCycle - whole) > 1e-9 * perCycle) {
            throw new IllegalArgumentException(String.format("%d lanes at %s GT/s (%db/%db) is %s bytes per %s MHz cycle: not a whole number", lanes,
                    gigaTransfersPerLane, dataBits, lineBits, perCycle, clockMhz));
        }
        return new PcieLink((int) whole, headerCycles, processingCycles, interleaveTags);
    }

    /** Link cycles of one TLP with {@code payload} bytes: header + ceil(payload / bytesPerCycle) + processing. */
    public int tlpCycles(int payload) {
        return headerCycles + (payload + bytesPerCycle - 1) / bytesPerCycle + processingCycles;
    }

    public PcieLink withInterleave(boolean on) {
        return new PcieLink(bytesPerCycle, headerCycles, processingCycles, on);
    }
}
