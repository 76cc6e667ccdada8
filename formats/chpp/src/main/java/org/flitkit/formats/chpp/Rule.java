package org.flitkit.formats.chpp;

/**
 * The validation rules of the cHPP formats: every refusal of a decoder names one of these
 * (docs/chpp-formats.md, "Validation rules"). Hardware that meets a violation drops the input and counts it
 * (or posts the completion status given in the table); software gets a {@link ChppFormatException}.
 */
public enum Rule {
    WRONG_SIZE("wrong-size", "input is not the size the format requires"),
    RESERVED_BITS("reserved-bits", "a reserved bit, or a field unused by this kind, is not 0"),
    NOT_MEMORY_WRITE("not-memory-write", "header Fmt/Type is not a 4-DW PCIe memory write (011/00000)"),
    UNKNOWN_PKT_TYPE("unknown-pkt-type", "PKTType is not NAP (1), PUT (2) or GET (3)"),
    LENGTH_TOO_LARGE("length-too-large", "header Length above 4096 payload bytes"),
    NAP_TOO_LARGE("nap-too-large", "NAP payload above 2048 bytes"),
    PUT_EMPTY("put-empty", "a PUT packet carries no payload and is not a failed GET answer (S_Flag exactly CE+LAST+RESP)"),
    GET_LENGTH("get-length", "a GET packet's payload is not exactly one 32-byte GET descriptor"),
    ADDRESS_NOT_ZERO("address-not-zero", "a NAP or GET header's Address is not 0"),
    BAD_S_FLAG("bad-s-flag", "S_Flag combination not allowed for this PKTType"),
    GET_PAYLOAD("get-payload", "a GET packet's payload is not a GET descriptor addressed like its header (DST_ID, QPMagic)"),
    UNKNOWN_DESC_KIND("unknown-desc-kind", "descriptor Kind is not 1..5"),
    ZERO_LENGTH("zero-length", "a PUT, GET or chain segment of 0 bytes"),
    ADDRESS_TOO_WIDE("address-too-wide", "a remote address, or its end (address + length), beyond the 48-bit global address space"),
    NAP_NEEDS_RECEIVE_EVENT("nap-needs-receive-event", "a NAP descriptor without RCE: every NAP posts a receive completion"),
    QP_MISMATCH("qp-mismatch", "descriptor QP differs from the QP whose doorbell fetched it"),
    CHAIN_NO_SEGMENTS("chain-no-segments", "a chain descriptor with no source or no destination segment"),
    CHAIN_TOO_MANY_SEGMENTS("chain-too-many-segments", "source + destination segments above 255 (descriptor above 4096 bytes)"),
    CHAIN_LENGTH_MISMATCH("chain-length-mismatch", "source and destination segment totals differ"),
    TRANSFER_TOO_LARGE("transfer-too-large", "a chain's total above 2^32 - 1 bytes"),
    UNKNOWN_STATUS("unknown-status", "completion Status is not a defined code, or not one this ring uses"),
    BAD_RECEIVE_TYPE("bad-receive-type", "a receive completion's PKTType is not NAP or PUT, Resp set on a NAP, or GET_FAILED not on a PUT with Resp"),
    NAP_BUFFER_MISALIGNED("nap-buffer-misaligned", "a NAP receive buffer address is not 2 KB aligned"),
    DOORBELL_OFFSET("doorbell-offset", "a doorbell write not at offset 0 of one of the 4 QP pages"),
    DOORBELL_LENGTH("doorbell-length", "doorbell descriptor length 0 words or above 512 words (4096 bytes)"),
    DOORBELL_MISALIGNED("doorbell-misaligned", "doorbell descriptor address not 8-byte aligned");

    private final String id;
    private final String description;

    Rule(String id, String description) {
        this.id = id;
        this.description = description;
    }

    /** Kebab-case name that starts every message of this rule. */
    public String id() {
        return id;
    }

    public String description() {
        return description;
    }
}
