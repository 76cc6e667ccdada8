package org.flitkit.formats.th2;

/**
 * The 512-bit management descriptor host software puts into an SDQ: control word in
 * bits 63:0, then both routing fields, NMPType and NMPData (limbs 5..7).
 * Spec: shared/spec/20-th2-management.md, "Management packets and descriptors".
 */
public final class DescriptorLayout {

    public static final Layout DESCRIPTOR = Layout.builder("descriptor", Th2.DESCRIPTOR_BITS)
            .field("Head", 0, 1, "descriptor marker: 1 = a valid descriptor")
            .field("Fen", 1, 1, "1 = execute only after the previous descriptor completed")
            .field("Err", 2, 1, "set by the NIC when it finds the descriptor malformed")
            .field("Lint", 3, 1, "raise a completion interrupt at the source")
            .field("Rint", 4, 1, "raise an MPQ-not-empty interrupt when the response arrives")
            .field("SM", 5, 1, "S/M: 0 = single-packet message (management)")
            .field("Inst", 6, 1, "Inst: 1 = management MP (executed by the NMA)")
            .field("Type", 8, 4, "transport packet type: 1 = MP (management is a special MP)")
            .field("RtType", 12, 2, "routing type: 1 = source routing (required)")
            .field("DestType", 14, 2, "target chip type: 0 = NIC, 1 = NRC")
            .field("DestID", 16, Th2.CHIP_ID_BITS, "target chip ID; 0xFFFF = any (ID not configured yet)")
            .field("TransactionID", 32, 16, "transaction ID, 0..65535, echoed in the response")
            .field("DestVP", 48, 6, "VP (0..39) that receives the response")
            .field("SrcVP", 56, 6, "VP (0..39) that sends the request")
            .field("FRoutingField", 64, Th2.ROUTE_BITS, "forward route, server -> target")
            .field("BRoutingField", 176, Th2.ROUTE_BITS, "backward route, target -> server")
            .field("NMPType", 288, NmpType.BITS, "management packet type (a request code)")
            .field("NMPData", 320, Th2.NMP_DATA_BITS, "request payload, laid out per NMPType")
            .build();

    private DescriptorLayout() {
    }
}
