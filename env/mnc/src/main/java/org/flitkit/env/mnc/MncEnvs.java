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
    public static final int PACKET_CYCLES = 250;
    /**
     * Host time of the paper's software dispatch per striped message, from the SAck's arrival to the chunks posted
     * (assumption: about 3 us for the SAck's event write, the library's polling, link choice and posting two descriptors).
     */
    public static final double SOFTWARE_DISPATCH_NS = 3_000;

    private MncEnvs() {
    }

    /** The node with the link dispatch in hardware. */
    public static MncParams params(int rails) {
        return MncParams.of(rails).withPacketCycles(PACKET_CYCLES);
    }

    /** The paper's MNC: the same node with the dispatch done by the host library. */
    public static MncParams paper(int rails, Platform platform) {
        return params(rails).withSoftwareDispatch((int) platform.cycles(SOFTWARE_DISPATCH_NS));
    }
}
