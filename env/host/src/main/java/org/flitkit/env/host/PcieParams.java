package org.flitkit.env.host;

/**
 * The host end of a device's PCIe-like interface as {@link PcieHost} models it: the DMA path to host memory
 * ({@link DmaParams}) and the latency of host register (BAR) writes, all in device clock cycles.
 * Decisions and the sources of the defaults: docs/host-pcie.md.
 *
 * @param dma               DMA read round trip, posted-write latency, tags and PCIe sizes
 * @param mmioLatencyCycles cycles from host software's BAR write until the device sees it (a posted write
 *                          from the root complex to the device: the one-way trip)
 * @param link              the link as a bandwidth bottleneck with per-TLP header and processing cycles, or
 *                          {@code null} for none (one beat per cycle each way, as the TH-2 and XUD models use)
 */
public record PcieParams(DmaParams dma, int mmioLatencyCycles, PcieLink link) {
    /** The TH-2 NIC models' clock. */
    public static final double TH2_CLOCK_MHZ = 100.0;
    /**
     * DMA read round trip of the TH-2 models: within the 400-900 ns that Neugebauer et al., "Understanding PCIe
     * performance for end host networking" (SIGCOMM 2018), measured for DMA reads on PCIe Gen3 hosts.
     */
    public static final double TH2_READ_ROUND_TRIP_NS = 600.0;
    /** The cHPP NIC prototype's core clock (its 128-bit internal bus). */
    public static final double CHPP_CLOCK_MHZ = 250.0;
    /** The cHPP paper's empirical host memory read round trip, in 250 MHz cycles (to the first completion beat). */
    public static final int CHPP_READ_ROUND_TRIP_CYCLES = 130;

    public PcieParams {
        if (dma == null) {
            throw new IllegalArgumentException("PcieParams needs DMA parameters");
        }
        if (mmioLatencyCycles < 1) {
            throw new IllegalArgumentException("the BAR write latency must be at least 1 cycle, got " + mmioLatencyCycles);
        }
    }

    /** No link model: beats move one per cycle each way with no per-TLP cost (the TH-2 NIC and XUD models). */
    public PcieParams(DmaParams dma, int mmioLatencyCycles) {
        this(dma, mmioLatencyCycles, null);
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
        return th2(TH2_CLOCK_MHZ);
    }

    /** The same TH-2 times in cycles of a NIC clocked at {@code clockMhz} (a whole NIC on the link's frame clock). */
    public static PcieParams th2(double clockMhz) {
        double half = TH2_READ_ROUND_TRIP_NS / 2;
        return fromNanos(clockMhz, TH2_READ_ROUND_TRIP_NS, half, half);
    }

    /**
     * The cHPP NIC prototype (docs/host-pcie.md, "cHPP: 16-byte beats at 250 MHz"): 250 MHz, read round trip 130
     * cycles to the first completion beat, posted writes and BAR writes half of it (65), 32 tags, max read request
     * 512 B, max payload 128 B, read completion boundary 64 B; a PCIe 2.0 x8 link (4 GB/s after 8b/10b = 16 bytes
     * per cycle) with 1 header and 1 processing cycle per TLP, completions of different tags interleaved.
     */
    public static PcieParams chpp() {
        int half = CHPP_READ_ROUND_TRIP_CYCLES / 2;
        DmaParams d = new DmaParams(CHPP_READ_ROUND_TRIP_CYCLES, half, 32, 512, 128, 64);
        return new PcieParams(d, half, PcieLink.of(8, 5.0, 8, 10, CHPP_CLOCK_MHZ, 1, 1, true));
    }

    public PcieParams withDma(DmaParams d) {
        return new PcieParams(d, mmioLatencyCycles, link);
    }

    public PcieParams withMmioLatency(int cycles) {
        return new PcieParams(dma, cycles, link);
    }

    /** The same parameters with {@code l} as the link ({@code null}: no link model). */
    public PcieParams withLink(PcieLink l) {
        return new PcieParams(dma, mmioLatencyCycles, l);
    }
}
