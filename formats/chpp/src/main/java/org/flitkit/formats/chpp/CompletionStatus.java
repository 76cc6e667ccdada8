package org.flitkit.formats.chpp;

/**
 * The 8-bit CompletionStatus of a completion ring entry (docs/chpp-formats.md, "Status codes"). The paper gives no
 * list; each code says in which ring it may appear, and a decoder refuses a code in the wrong ring.
 */
public enum CompletionStatus {
    OK(0x00, true, true, "done"),
    QP_MAGIC_REFUSED(0x01, false, true, "packet's QPMagic did not match the target QP's key: nothing written (posted for a NAP, or a PUT with CE)"),
    LENGTH_MISMATCH(0x02, true, false, "chain descriptor whose source and destination totals differ: nothing sent"),
    BAD_DESCRIPTOR(0x03, true, false, "descriptor refused by another rule (kind, size, reserved bits, lengths, QP): nothing sent"),
    PCIE_ERROR(0x04, true, true, "a host memory read ended with an error completion (UR or CA): transfer ended"),
    COMPLETION_TIMEOUT(0x05, true, true, "a host memory read got no completion in time: transfer ended"),
    NO_RECEIVE_BUFFER(0x06, false, true, "a NAP arrived and no receive buffer address was available: data dropped"),
    GET_FAILED(0x07, false, true, "the target could not read the data of this GET: the GET ended at Address (bytes before it arrived); "
            + "only on a PUT completion with Resp");

    public static final int BITS = 8;
    private final int code;
    private final boolean send;
    private final boolean receive;
    private final String description;

    CompletionStatus(int code, boolean send, boolean receive, String description) {
        this.code = code;
        this.send = send;
        this.receive = receive;
        this.description = description;
    }

    public int code() {
        return code;
    }

    /** May appear in a send completion. */
    public boolean send() {
        return send;
    }

    /** May appear in a receive completion. */
    public boolean receive() {
        return receive;
    }

    public String description() {
        return description;
    }

    /**
     * The send completion status of a descriptor refused by {@code rule}: LENGTH_MISMATCH for a chain whose totals
     * differ, BAD_DESCRIPTOR for every other rule (docs/chpp-formats.md, decision "descriptor refusal status").
     */
    public static CompletionStatus forRefusedDescriptor(Rule rule) {
        ChppBits.notNull("rule", rule);
        return rule == Rule.CHAIN_LENGTH_MISMATCH ? LENGTH_MISMATCH : BAD_DESCRIPTOR;
    }

    /** The status with this code, or a {@link Rule#UNKNOWN_STATUS} refusal. */
    public static CompletionStatus fromCode(long code) {
        for (CompletionStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new ChppFormatException(Rule.UNKNOWN_STATUS, String.format("Status 0x%02X is not a defined code", code));
    }
}
