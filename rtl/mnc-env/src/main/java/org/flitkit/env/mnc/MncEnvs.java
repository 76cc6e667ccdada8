package org.flitkit.env.mnc;

import org.flitkit.rtl.mnc.MncParams;

/**
 * The node configuration the platform runs: {@link MncParams#of} with the per-packet firmware cycles of the
 * paper's GM MCP on LANai 9 (docs/mnc.md, "Platform parameters": calibrated on the one-rail peak bandwidth).
 */
public final class MncEnvs {
    /**
     * Model cycles (66 MHz) the SEND and RECV engines spend per packet: calibrated so that one rail peaks at the
     * paper's 202 MB/s (figure 7, L1); the two-rail peak is then a prediction.
     */
    public static final int PACKET_CYCLES = 150;

    private MncEnvs() {
    }

    public static MncParams params(int rails) {
        return MncParams.of(rails).withPacketCycles(PACKET_CYCLES);
    }
}
