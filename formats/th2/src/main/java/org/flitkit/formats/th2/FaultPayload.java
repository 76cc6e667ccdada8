package org.flitkit.formats.th2;

import org.flitkit.formats.core.BitVector;

/**
 * Fault-report NMPData: 8-bit fault number, port (31 = chip level), a snapshot of the fault
 * status register and the chip cycle counter when the fault was seen.
 * Spec: the TH-2 management spec, "Management packets and descriptors" and function 3.
 */
public record FaultPayload(int faultCode, int port, long status, long timestamp) implements NmpPayload {

    private static final PayloadLayouts.FaultReport L = PayloadLayouts.FAULT;

    public FaultPayload {
        if (faultCode < 0 || faultCode > 0xFF) {
            throw new IllegalArgumentException("fault code " + faultCode + " does not fit 8 bits");
        }
        if ((port < 0 || port >= Th2.NRC_PORTS) && port != FaultCode.CHIP_LEVEL_PORT) {
            throw new IllegalArgumentException("fault port " + port + " must be 0..23 or 31 (chip level)");
        }
    }

    public static FaultPayload of(FaultCode code, int port, long status, long timestamp) {
        return new FaultPayload(code.code(), port, status, timestamp);
    }

    /** Console form, e.g. {@code fault=link-down port=5}. */
    public String console() {
        return FaultCode.console(faultCode) + " port=" + (port == FaultCode.CHIP_LEVEL_PORT ? "chip" : Integer.toString(port));
    }

    @Override
    public void checkFits(NmpType type, ChipType chip) {
        if (type != NmpType.FAULT_REPORT) {
            throw new IllegalArgumentException("a fault payload does not suit NMPType " + type);
        }
    }

    @Override
    public BitVector encode() {
        return L.zero().with(L.TIMESTAMP, timestamp)
                .with(L.FAULT_STATUS, status)
                .with(L.FAULT_CODE, faultCode)
                .with(L.FAULT_PORT, port);
    }

    static FaultPayload decode(BitVector bits) {
        L.layout().requireReservedZero(bits);
        return new FaultPayload((int) bits.get(L.FAULT_CODE), (int) bits.get(L.FAULT_PORT),
                bits.get(L.FAULT_STATUS), bits.get(L.TIMESTAMP));
    }
}
