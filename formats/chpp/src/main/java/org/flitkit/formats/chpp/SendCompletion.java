package org.flitkit.formats.chpp;

import org.flitkit.formats.core.BitVector;

/**
 * A send completion ring entry (layout {@link CompletionLayouts.Send}; docs/chpp-formats.md, "Completion
 * rings"). {@code kind} is null when the descriptor could not be read or had no valid Kind (field 0).
 */
public record SendCompletion(DescKind kind, int qp, CompletionStatus status, int cookie, long bytes, boolean phase) {

    private static final CompletionLayouts.Send L = CompletionLayouts.SEND;

    public SendCompletion {
        ChppBits.notNull("Status", status);
        ChppBits.range("QP", qp, Chpp.QPS - 1);
        ChppBits.range("Cookie", cookie, 0xFFFF);
        ChppBits.range("Bytes", bytes, Chpp.MAX_TRANSFER);
        ChppFormatException.require(status.send(), Rule.UNKNOWN_STATUS, "Status " + status + " does not appear in the send ring");
    }

    public byte[] encode() {
        return L.zero().with(L.KIND, kind == null ? 0 : kind.code()).with(L.QP, qp).with(L.STATUS, status.code())
                .with(L.COOKIE, cookie).with(L.BYTES, bytes).with(L.PHASE, phase ? 1 : 0).toBytesLE();
    }

    /** Rules: size, reserved bits, Kind (0 allowed), CompletionStatus (send codes). */
    public static SendCompletion decode(byte[] bytes) {
        ChppBits.size("a send completion", bytes, Chpp.COMPLETION_BYTES);
        BitVector v = ChppBits.fromLE(bytes);
        ChppBits.reservedZero(L.layout(), v, 0);
        long kind = v.get(L.KIND);
        return new SendCompletion(kind == 0 ? null : DescKind.fromCode(kind), (int) v.get(L.QP),
                CompletionStatus.fromCode(v.get(L.STATUS)), (int) v.get(L.COOKIE), v.get(L.BYTES), v.get(L.PHASE) != 0);
    }
}
