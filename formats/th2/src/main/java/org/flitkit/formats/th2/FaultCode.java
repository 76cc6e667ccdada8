package org.flitkit.formats.th2;

import org.flitkit.formats.core.Coded;

/**
 * Fault numbers carried by an active fault report (8-bit field; codes 0..63 so that bit n
 * of the 64-bit fault-mask and report-enable registers governs fault n).
 * Spec: the TH-2 management spec, "Management packets and descriptors" and item 3 of the functions.
 */
public enum FaultCode implements Coded {
    LINK_DOWN(0x01, "link-down", "a port's link went down"),
    LINK_DEGRADED(0x02, "link-degraded", "a port's link width dropped below 8 lanes"),
    RETRY_THRESHOLD(0x03, "retry-threshold", "link-layer retransmission count crossed its threshold"),
    OVER_TEMPERATURE(0x04, "over-temperature", "chip temperature above its limit"),
    EEPROM_LOAD_FAILED(0x05, "eeprom-load-failed", "power-up configuration load from the E2PROM failed"),
    DMA_ERROR(0x06, "dma-error", "NIC: a host-memory read completed with an error status"),
    MPQ_OVERFLOW(0x07, "mpq-overflow", "NIC: a packet for the host was dropped because its VP's MPQ was full");

    /** Width of the FaultCode field. */
    public static final int BITS = 8;
    /** Fault codes 0..63 map one to one onto mask/enable register bits. */
    public static final int MASKABLE = 64;
    /** FaultPort value for a fault that belongs to no port. */
    public static final int CHIP_LEVEL_PORT = 31;

    private final int code;
    private final String reason;
    private final String description;

    FaultCode(int code, String reason, String description) {
        this.code = code;
        this.reason = reason;
        this.description = description;
    }

    @Override
    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    public String description() {
        return description;
    }

    /** Console text for a raw fault number: {@code fault=link-down}, or {@code fault=0x2a} if unknown. */
    public static String console(int code) {
        return Coded.find(values(), code).map(f -> "fault=" + f.reason)
                .orElse("fault=0x" + Integer.toHexString(code));
    }
}
