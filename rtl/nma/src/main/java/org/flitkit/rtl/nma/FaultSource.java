package org.flitkit.rtl.nma;

import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.Th2;

/**
 * One fault input of {@link ActiveReport}: the fault code it reports (0..63, the bit of REPORT_ENABLE,
 * FAULT_MASK and FAULT_STATUS) and its port (0..23, or 31 = chip level).
 * Spec: 20-th2-management.md, function 3 (active fault reporting).
 */
public record FaultSource(int code, int port) {
    public FaultSource {
        if (code < 0 || code >= FaultCode.MASKABLE) {
            throw new IllegalArgumentException("fault code " + code + " must be 0.." + (FaultCode.MASKABLE - 1));
        }
        if ((port < 0 || port >= Th2.NRC_PORTS) && port != FaultCode.CHIP_LEVEL_PORT) {
            throw new IllegalArgumentException("fault port " + port + " must be 0..23 or 31");
        }
    }

    public static FaultSource of(FaultCode code, int port) {
        return new FaultSource(code.code(), port);
    }

    public static FaultSource chip(FaultCode code) {
        return new FaultSource(code.code(), FaultCode.CHIP_LEVEL_PORT);
    }
}
