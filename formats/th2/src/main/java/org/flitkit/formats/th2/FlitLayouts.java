package org.flitkit.formats.th2;

import java.util.List;

/**
 * The 105-bit routing field and the four 198-bit flits of a management packet (head,
 * body1, body2, tail); no field straddles a flit. Bit 0 of a flit is sent first.
 * Spec: shared/spec/20-th2-management.md, "Management packets and descriptors".
 */
public final class FlitLayouts {

    /** {@code <HopNum, Hop0..Hop19>}: HopNum at the bottom, Hop i at bits [5i+9 : 5i+5]. */
    public static final Layout ROUTE = route();

    public static final Layout HEAD = Layout.builder("head", Th2.FLIT_BITS)
            .field("Route", 0, Th2.ROUTE_BITS, "active routing field (request: FRoutingField; response: the request's BRoutingField)")
            .field("HopPtr", 105, 5, "index of the next hop to use; each NRC uses Hop[HopPtr] and increments it; not covered by the CRC")
            .field("RtType", 110, 2, "routing type: 1 = source routing (always, for management); 0 = table routing")
            .field("VC", 112, 3, "virtual channel: always 3 for management packets")
            .field("Len", 115, 5, "packet length in flits: always 4")
            .field("DestType", 120, 2, "destination chip type: 0 = NIC, 1 = NRC")
            .field("SrcType", 122, 2, "source chip type: 0 = NIC, 1 = NRC")
            .field("Type", 124, 4, "transport packet type from the descriptor: 1 = MP")
            .field("DestID", 128, Th2.CHIP_ID_BITS, "destination chip ID; 0xFFFF = any (chip ID not configured yet)")
            .field("SrcID", 144, Th2.CHIP_ID_BITS, "source chip ID: the server's NIC for requests, the answering chip for responses")
            .field("DestVP", 160, 6, "server VP (0..39) whose MPQ receives the response")
            .field("SrcVP", 166, 6, "server VP (0..39) that sent the request")
            .field("SM", 172, 1, "S/M from the descriptor: 0 = single-packet message")
            .field("Inst", 173, 1, "Inst from the descriptor: 1 = management MP, executed by the NMA")
            .field("Rint", 174, 1, "raise an MPQ-not-empty interrupt when the response reaches the server")
            .field("Kind", 196, 2, "flit kind: 2 = head")
            .build();

    public static final Layout BODY1 = Layout.builder("body1", Th2.FLIT_BITS)
            .field("ReturnRoute", 0, Th2.ROUTE_BITS, "routing field back to the other end (request: BRoutingField; response: the request's Route)")
            .field("NMPType", 112, NmpType.BITS, "management packet type (see NMPType codes)")
            .field("TransactionID", 128, 16, "transaction ID, echoed unchanged in the response")
            .field("Kind", 196, 2, "flit kind: 0 = body")
            .build();

    public static final Layout BODY2 = Layout.builder("body2", Th2.FLIT_BITS)
            .field("NMPData", 0, Th2.NMP_DATA_BITS, "NMP payload, laid out per NMPType (see the NMPData layouts)")
            .field("Kind", 196, 2, "flit kind: 0 = body")
            .build();

    public static final Layout TAIL = Layout.builder("tail", Th2.FLIT_BITS)
            .field("CRC", 0, 32, "CRC-32C over the whole packet with HopPtr and CRC taken as zero")
            .field("Kind", 196, 2, "flit kind: 1 = tail")
            .build();

    /** The flits in transmission order. */
    public static final List<Layout> FLITS = List.of(HEAD, BODY1, BODY2, TAIL);

    /** The Kind value each flit must carry, in the same order as {@link #FLITS}. */
    public static final List<Integer> KINDS = List.of(Th2.KIND_HEAD, Th2.KIND_BODY, Th2.KIND_BODY, Th2.KIND_TAIL);

    private FlitLayouts() {
    }

    private static Layout route() {
        Layout.Builder b = Layout.builder("route", Th2.ROUTE_BITS)
                .field("HopNum", 0, 5, "number of valid hops, 0..20");
        for (int i = 0; i < Th2.MAX_HOPS; i++) {
            b.field("Hop" + i, 5 + 5 * i, 5, "output port (0..23) at the path's NRC number " + i + " (the first NRC is 0); 0 if unused");
        }
        return b.build();
    }
}
