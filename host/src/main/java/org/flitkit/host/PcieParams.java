package org.flitkit.host;

/**
 * The host end of a device's PCIe-like interface as {@link PcieHost} models it: the DMA path to host memory
 * ({@link DmaParams}) and the latency of host register (BAR) writes, all in device clock cycles.
 * Decisions and the sources of the defaults: docs/host-pcie.md.
 *
 * @param dma               DMA read round trip, posted-write latency, tags and PCIe sizes
 * @param mmioLatencyCycles cycles from host software's BAR write until the device sees it (a posted write
 *                          from the root complex to the device: the one-way trip)
 */
public record PcieParams(DmaParams dma, int mmioLatencyCycles) {
    /** The TH-2 NIC models' clock. */
    public static final double TH2_CLOCK_MHZ = 100.0;
    /**
     * DMA read round trip of the TH-2 models: within the 400-900 ns that Neugebauer et al., "Understanding PCIe
     * performance for end host networking" (SIGCOMM 2018), measured for DMA reads on PCIe Gen3 hosts.
     */
    public static final double TH2_READ_ROUND_TRIP_NS = 600.0;

    public PcieParams {
        if (dma == null) {
            throw new IllegalArgumentException("PcieParams needs DMA parameters");
        }
        if (mmioLatencyCycles < 1) {
            throw new IllegalArgumentException("the BAR write latency must be at least 1 cycle, got " + mmioLatencyCycles);
        }
    }

    /**
     * Parameters from nanoseconds at {@code clockMhz}: read round trip, posted DMA write latency and BAR write
     * latency; tags and PCIe sizes as in {@link DmaParams#defaults()}.
     */
    public static PcieParams fromNanos(double clockMhz, double readRoundTripNs, double writeLatencyNs, double mmioLatencyNs) {
        return new PcieParams(DmaParams.fromNanos(clockMhz, readRoundTripNs, writeLatencyNs), DmaParams.cycles(clockMhz, mmioLatencyNs));
    }

    /**
     * TH-2 defaults at 100 MHz: DMA read round trip 600 ns (60 cycles); a posted write (DMA write, BAR write) is
     * the one-way trip, half of it: 300 ns (30 cycles).
     */
    public static PcieParams th2() {
        double half = TH2_READ_ROUND_TRIP_NS / 2;
        return fromNanos(TH2_CLOCK_MHZ, TH2_READ_ROUND_TRIP_NS, half, half);
    }

    public PcieParams withDma(DmaParams d) {
        return new PcieParams(d, mmioLatencyCycles);
    }

    public PcieParams withMmioLatency(int cycles) {
        return new PcieParams(dma, cycles);
    }
}
