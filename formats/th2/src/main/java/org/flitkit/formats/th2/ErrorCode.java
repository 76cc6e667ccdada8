package org.flitkit.formats.th2;

import org.flitkit.formats.core.Coded;

/**
 * Why a request failed, carried as the 8-bit ErrCode of an error response, with a short
 * console reason such as {@code reason=unmapped-address}.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public enum ErrorCode implements Coded {
    BAD_TYPE(0x01, "bad-type", "NMPType is not a request this NMA executes"),
    BAD_COUNT(0x02, "bad-count", "count is 0 or above the maximum (2 registers, 6 E2PROM bytes)"),
    ADDRESS_OUT_OF_RANGE(0x03, "address-out-of-range", "address wider than the chip's address space (12 bits NIC, 15 bits NRC)"),
    UNMAPPED_ADDRESS(0x04, "unmapped-address", "address in range but no register there"),
    READ_ONLY(0x05, "read-only", "write to a read-only register"),
    BAD_DEST_TYPE(0x06, "bad-dest-type", "DestType does not name this chip's type"),
    RESERVED_NOT_ZERO(0x07, "reserved-not-zero", "a reserved or unused payload bit is set"),
    EEPROM_NACK(0x10, "eeprom-nack", "the E2PROM did not acknowledge on I2C"),
    EEPROM_TIMEOUT(0x11, "eeprom-timeout", "the I2C transfer did not complete in time"),
    EEPROM_BUSY(0x12, "eeprom-busy", "the E2PROM is in use (power-up configuration load in progress)"),
    BUSY(0x20, "busy", "the NMA cannot accept the request now; retry"),
    INTERNAL(0xFF, "internal", "internal NMA error");

    /** Width of the ErrCode field. */
    public static final int BITS = 8;

    private final int code;
    private final String reason;
    private final String description;

    ErrorCode(int code, String reason, String description) {
        this.code = code;
        this.reason = reason;
        this.description = description;
    }

    @Override
    public int code() {
        return code;
    }

    /** Short kebab-case reason, e.g. {@code unmapped-address}. */
    public String reason() {
        return reason;
    }

    public String description() {
        return description;
    }

    /** Console form: {@code reason=unmapped-address}. */
    public String console() {
        return "reason=" + reason;
    }

    public static ErrorCode fromCode(long code) {
        return Coded.find(values(), code)
                .orElseThrow(() -> new IllegalArgumentException("unknown error code 0x" + Long.toHexString(code)));
    }
}
