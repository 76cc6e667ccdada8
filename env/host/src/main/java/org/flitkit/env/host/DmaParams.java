package org.flitkit.env.host;

/**
 * The PCIe-like parameters of a NIC's DMA path to host memory, in device clock cycles and bytes.
 *
 * @param readRoundTripCycles   cycles from a read request leaving the device to its first completion arriving.
 *                              Default 400 cycles: ~0.5 us at the XUD HCA's 781.25 MHz, the order of the DMA
 *                              read latencies measured on PCIe Gen3 hosts (Neugebauer et al., "Understanding PCIe
 *                              performance for end host networking", SIGCOMM 2018: 400-900 ns)
 * @param writeLatencyCycles    cycles until a posted write is visible to host software, and a read request reaches the
 *                              host (the one-way trip; half the round trip by default)
 * @param tags                  read requests outstanding at once. Default 32: PCIe base specification, 5-bit Tag
 *                              field without the Extended Tag capability
 * @param maxReadRequestBytes   largest read request. Default 512: PCIe base specification's default
 *                              Max_Read_Request_Size
 * @param maxPayloadBytes       largest write request and largest completion. Default 128: PCIe base specification's
 *                              default Max_Payload_Size
 * @param readCompletionBoundary completions of a read end at multiples of this address boundary. Default 64: PCIe base
 *                              specification, a Root Complex's RCB is 64 or 128 bytes
 */
public record DmaParams(int readRoundTripCycles, int writeLatencyCycles, int tags, int maxReadRequestBytes, int maxPayloadBytes,
        int readCompletionBoundary) {
    public DmaParams {
        if (writeLatencyCycles < 0 || readRoundTripCycles <= writeLatencyCycles) {
            throw new IllegalArgumentException("the read round trip must exceed the write (one-way) latency: read round trip " + readRoundTripCycles
                    + ", write " + writeLatencyCycles);
        }
        if (tags < 1 || tags > 1024) {
            throw new IllegalArgumentException("tags must be in 1..1024, got " + tags);
        }
        for (int v : new int[] {maxReadRequestBytes, maxPayloadBytes, readCompletionBoundary}) {
            if (v < 4 || v > 4096 || Integer.bitCount(v) != 1) {
                throw new IllegalArgumentException("max read request, max payload and read completion boundary must be powers of two in"
                        + " 4..4096 bytes, got " + maxReadRequestBytes + ", " + maxPayloadBytes + ", " + readCompletionBoundary);
            }
        }
    }

    public static DmaParams defaults() {
        return new DmaParams(400, 200, 32, 512, 128, 64);
    }

    /**
     * Parameters from times in nanoseconds at a device clock of {@code clockMhz}: the read round trip and the
     * one-way (posted write) latency become cycles, rounded to the nearest; tags and sizes keep their defaults.
     */
    public static DmaParams fromNanos(double clockMhz, double readRoundTripNs, double writeLatencyNs) {
        return defaults().withLatency(cycles(clockMhz, readRoundTripNs), cycles(clockMhz, writeLatencyNs));
    }

    /** {@code ns} nanoseconds at {@code clockMhz} as a whole number of cycles (rounded to the nearest). */
    public static int cycles(double clockMhz, double ns) {
        if (!(clockMhz > 0) || !(ns >= 0) || Double.isInfinite(clockMhz) || Double.isInfinite(ns)) {
            throw new IllegalArgumentException("need a positive clock and a non-negative time: " + clockMhz + " MHz, " + ns + " ns");
        }
        double c = ns * clockMhz / 1000.0;
        if (c > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(ns + " ns at " + clockMhz + " MHz is more than " + Integer.MAX_VALUE + " cycles");
        }
        return (int) Math.round(c);
    }

    public DmaParams withLatency(int readRoundTrip, int write) {
        return new DmaParams(readRoundTrip, write, tags, maxReadRequestBytes, maxPayloadBytes, readCompletionBoundary);
    }
}
