package org.flitkit.formats.th2;

import org.flitkit.formats.core.Coded;

/**
 * The 11 NMPType kinds with their fixed 6-bit codes: {@code code[5:3]} is the target
 * (1 register, 2 E2PROM, 3 fault report), {@code code[0]} = 1 means chip-to-server.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public enum NmpType implements Coded {
    REG_READ_REQ(0x08, "register read request"),
    REG_READ_RESP(0x09, "register read response"),
    REG_WRITE_REQ(0x0A, "register write request"),
    REG_WRITE_RESP(0x0B, "register write response"),
    REG_ERROR_RESP(0x0F, "register request error response"),
    EEP_READ_REQ(0x10, "E2PROM read request"),
    EEP_READ_RESP(0x11, "E2PROM read response"),
    EEP_WRITE_REQ(0x12, "E2PROM write request"),
    EEP_WRITE_RESP(0x13, "E2PROM write response"),
    EEP_ERROR_RESP(0x17, "E2PROM request error response"),
    FAULT_REPORT(0x19, "active fault report");

    /** Width of the NMPType field. */
    public static final int BITS = 6;

    /** What a packet of this type addresses; {@code code[5:3]}. */
    public enum Target { REGISTER, EEPROM, FAULT }

    private final int code;
    private final String description;

    NmpType(int code, String description) {
        this.code = code;
        this.description = description;
    }

    @Override
    public int code() {
        return code;
    }

    public String description() {
        return description;
    }

    public Target target() {
        return switch (code >> 3) {
            case 1 -> Target.REGISTER;
            case 2 -> Target.EEPROM;
            default -> Target.FAULT;
        };
    }

    /** Server-to-chip request, executed by the target's NMA ({@code code[0] = 0}). */
    public boolean isRequest() {
        return (code & 1) == 0;
    }

    /** Any response to a request, error responses included (not fault reports). */
    public boolean isResponse() {
        return !isRequest() && this != FAULT_REPORT;
    }

    public boolean isError() {
        return this == REG_ERROR_RESP || this == EEP_ERROR_RESP;
    }

    public boolean isRead() {
        return this == REG_READ_REQ || this == REG_READ_RESP || this == EEP_READ_REQ || this == EEP_READ_RESP;
    }

    public boolean isWrite() {
        return this == REG_WRITE_REQ || this == REG_WRITE_RESP || this == EEP_WRITE_REQ || this == EEP_WRITE_RESP;
    }

    /** Whether a register/E2PROM payload of this type carries data (write requests and read responses). */
    public boolean carriesData() {
        return this == REG_WRITE_REQ || this == REG_READ_RESP || this == EEP_WRITE_REQ || this == EEP_READ_RESP;
    }

    /** The normal response to this request. */
    public NmpType responseType() {
        if (!isRequest()) {
            throw new IllegalStateException(this + " is not a request");
        }
        return fromCode(code | 1);
    }

    /** The error response to this request. */
    public NmpType errorType() {
        if (!isRequest()) {
            throw new IllegalStateException(this + " is not a request");
        }
        return target() == Target.EEPROM ? EEP_ERROR_RESP : REG_ERROR_RESP;
    }

    /**
     * The error response for a raw request code that may not be a known type at all:
     * E2PROM class codes get {@link #EEP_ERROR_RESP}, everything else {@link #REG_ERROR_RESP}.
     */
    public static NmpType errorTypeForRaw(long rawCode) {
        return (rawCode >> 3) == 2 ? EEP_ERROR_RESP : REG_ERROR_RESP;
    }

    public static NmpType fromCode(long code) {
        return Coded.find(values(), code)
                .orElseThrow(() -> new IllegalArgumentException("unknown NMPType code 0x" + Long.toHexString(code)));
    }
}
