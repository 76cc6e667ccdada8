package org.flitkit.env.nic.host;

/**
 * Time the host CPU spends in the management library, in NIC cycles (100 MHz in the TH-2 models): from the
 * call to the doorbell write (building the descriptor, the store into the SDQ) and from the response being
 * visible to the call returning (polling, parsing). The paper measures end to end with software included
 * but does not break the software part out; the model does not predict it: it is a parameter, 0 by default,
 * and figures state what they include. docs/th2-nic.md, "Latency".
 */
public record HostSoftware(int sendOverheadCycles, int receiveOverheadCycles) {
    public static final HostSoftware NONE = new HostSoftware(0, 0);

    public HostSoftware {
        if (sendOverheadCycles < 0 || receiveOverheadCycles < 0) {
            throw new IllegalArgumentException("software overheads must not be negative: " + sendOverheadCycles + ", " + receiveOverheadCycles);
        }
    }
}
