package org.flitkit.formats.chpp;

/**
 * The header's 2-bit PKTType (paper section 3.2): NAP, PUT or GET; code 0 is refused so that an all-zero
 * header is never a packet.
 */
public enum PktType {
    NAP(1, "no-address packet: a message of 0..2048 bytes into a receive buffer the receiver picks"),
    PUT(2, "write of 1..4096 bytes at Address in the receiver's memory (one packet of a bulk transfer); 0 bytes only as a failed GET answer"),
    GET(3, "read request: the payload is the 32-byte GET descriptor; the receiver answers with PUTs");

    public static final int BITS = 2;
    private final int code;
    private final String description;

    PktType(int code, String description) {
        this.code = code;
        this.description = description;
    }

    public int code() {
        return code;
    }

    public String description() {
        return description;
    }

    /** The type with this code, or a {@link Rule#UNKNOWN_PKT_TYPE} refusal. */
    public static PktType fromCode(long code) {
        for (PktType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        throw new ChppFormatException(Rule.UNKNOWN_PKT_TYPE, "PKTType " + code + " is not NAP (1), PUT (2) or GET (3)");
    }
}
