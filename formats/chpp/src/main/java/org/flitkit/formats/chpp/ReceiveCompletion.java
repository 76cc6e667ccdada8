package org.flitkit.formats.chpp;

import org.flitkit.formats.core.BitVector;

/**
 * A receive completion ring entry, shared by NAP and PUT (paper section 4.2; layout
 * {@link CompletionLayouts.Receive}; docs/chpp-formats.md, "Completion rings").
 */
public record ReceiveCompletion(PktType type, boolean resp, CompletionStatus status, EndpointId src, EndpointId dst, int length,
                                long address, boolean phase) {

    private static final CompletionLayouts.Receive L = CompletionLayouts.RECEIVE;

    public ReceiveCompletion {
        ChppBits.notNull("PKTType", type);
        ChppBits.notNull("Status", status);
        ChppBits.notNull("SRC_ID", src);
        ChppBits.notNull("DST_ID", dst);
        ChppBits.range("Length", length, (1 << Chpp.LENGTH_BITS) - 1);
        ChppFormatException.require(type != PktType.GET, Rule.BAD_RECEIVE_TYPE, "a GET posts no receive completion");
        ChppFormatException.require(!(resp && type == PktType.NAP), Rule.BAD_RECEIVE_TYPE, "Resp set on a NAP completion");
        ChppFormatException.require(status.receive(), Rule.UNKNOWN_STATUS, "Status " + status + " does not appear in the receive ring");
        ChppFormatException.require(status != CompletionStatus.GET_FAILED || (type == PktType.PUT && resp), Rule.BAD_RECEIVE_TYPE,
                "Status GET_FAILED on a " + type + (resp ? " with Resp" : " without Resp") + ", only a GET's answer (PUT with Resp) fails so");
        ChppFormatException.require(length <= Chpp.MAX_PAYLOAD, Rule.LENGTH_TOO_LARGE, "Length " + length + " above " + Chpp.MAX_PAYLOAD + " bytes");
        if (type == PktType.NAP) {
            ChppFormatException.require(length <= Chpp.MAX_NAP, Rule.NAP_TOO_LARGE, "NAP Length " + length + " above " + Chpp.MAX_NAP + " bytes");
            ChppFormatException.require(address % Chpp.NAP_BUFFER_ALIGN == 0, Rule.NAP_BUFFER_MISALIGNED,
                    "NAP buffer 0x" + Long.toHexString(address) + " is not 2 KB aligned");
        }
    }

    public byte[] encode() {
        return L.zero().with(L.PKT_TYPE, type.code()).with(L.RESP, resp ? 1 : 0).with(L.STATUS, status.code())
                .with(L.SRC_ID, src.encode()).with(L.DST_ID, dst.encode()).with(L.LENGTH, length)
                .with(L.PHASE, phase ? 1 : 0).with(L.ADDRESS, address).toBytesLE();
    }

    /** Rules: size, reserved bits, PKTType (NAP or PUT), CompletionStatus (receive codes), Length, NAP buffer alignment. */
    public static ReceiveCompletion decode(byte[] bytes) {
        ChppBits.size("a receive completion", bytes, Chpp.COMPLETION_BYTES);
        BitVector v = ChppBits.fromLE(bytes);
        ChppBits.reservedZero(L.layout(), v, 0);
        long t = v.get(L.PKT_TYPE);
        ChppFormatException.require(t == PktType.NAP.code() || t == PktType.PUT.code(), Rule.BAD_RECEIVE_TYPE,
                "receive completion PKTType " + t + ", must be NAP (1) or PUT (2)");
        return new ReceiveCompletion(PktType.fromCode(t), v.get(L.RESP) != 0, CompletionStatus.fromCode(v.get(L.STATUS)),
                EndpointId.decode(v.get(L.SRC_ID)), EndpointId.decode(v.get(L.DST_ID)), (int) v.get(L.LENGTH),
                v.get(L.ADDRESS), v.get(L.PHASE) != 0);
    }
}
