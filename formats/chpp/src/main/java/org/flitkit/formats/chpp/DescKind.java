package org.flitkit.formats.chpp;

/**
 * The 4-bit Kind of a send descriptor (paper section 3.4.1: "the two NAP kinds are told apart by the type
 * field of the descriptor"; 3.4.2: chain-DMA descriptors). Codes 0 and 6..15 are refused.
 */
public enum DescKind {
    NAP_IMMEDIATE(1, PktType.NAP, "NAP with its 0..2048 data bytes inside the descriptor"),
    NAP_INDIRECT(2, PktType.NAP, "NAP of 0..2048 bytes read from a source address"),
    PUT(3, PktType.PUT, "one source segment to one remote destination"),
    GET(4, PktType.GET, "one remote source segment to one local destination, carried by a GET packet"),
    CHAIN(5, PktType.PUT, "PUT with lists of source and destination segments whose totals match");

    public static final int BITS = 4;
    private final int code;
    private final PktType packetType;
    private final String description;

    DescKind(int code, PktType packetType, String description) {
        this.code = code;
        this.packetType = packetType;
        this.description = description;
    }

    public int code() {
        return code;
    }

    /** The packets this descriptor produces. */
    public PktType packetType() {
        return packetType;
    }

    public String description() {
        return description;
    }

    /** The kind with this code, or a {@link Rule#UNKNOWN_DESC_KIND} refusal. */
    public static DescKind fromCode(long code) {
        for (DescKind k : values()) {
            if (k.code == code) {
                return k;
            }
        }
        throw new ChppFormatException(Rule.UNKNOWN_DESC_KIND, "descriptor Kind " + code + " is not 1..5");
    }
}
