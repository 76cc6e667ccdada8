package org.flitkit.formats.th2;

import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;

/**
 * A 4-flit management packet as it travels: build from fields or from a descriptor,
 * {@link #toBits()}/{@link #toFlits()} with CRC, {@link #parse} back with every check.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public record ManagementPacket(
        int hopPtr, RoutingField route, RoutingField returnRoute,
        ChipType destType, int destId, ChipType srcType, int srcId,
        int destVp, int srcVp, boolean rint,
        int transactionId, NmpType nmpType, NmpPayload payload) {

    private static final FlitLayouts.Head HEAD = PacketLayout.HEAD;
    private static final FlitLayouts.Body1 BODY1 = PacketLayout.BODY1;

    public ManagementPacket {
        Checks.notNull("Route", route);
        Checks.notNull("ReturnRoute", returnRoute);
        Checks.notNull("DestType", destType);
        Checks.notNull("SrcType", srcType);
        Checks.notNull("NMPType", nmpType);
        Checks.notNull("NMPData", payload);
        Checks.range("HopPtr", hopPtr, 0, route.hopNum());
        Checks.chipId("DestID", destId);
        Checks.chipId("SrcID", srcId);
        Checks.vp("DestVP", destVp);
        Checks.vp("SrcVP", srcVp);
        Checks.range("TransactionID", transactionId, 0, 0xFFFF);
        payload.checkFits(nmpType, nmpType.isRequest() ? destType : srcType);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().hopPtr(hopPtr).route(route).returnRoute(returnRoute)
                .destType(destType).destId(destId).srcType(srcType).srcId(srcId)
                .destVp(destVp).srcVp(srcVp).rint(rint).transactionId(transactionId)
                .nmpType(nmpType).payload(payload);
    }

    /** The request the NIC builds from a descriptor; {@code srcChipId} is the sending NIC's ID. */
    public static ManagementPacket fromDescriptor(ManagementDescriptor d, int srcChipId) {
        Checks.chipId("source chip ID", srcChipId);
        if (!d.head()) {
            throw new IllegalArgumentException("descriptor Head is 0: not a descriptor");
        }
        if (d.err()) {
            throw new IllegalArgumentException("descriptor has Err set: it is not sent");
        }
        return parse(DescriptorMapping.requestBits(d.encode(), srcChipId));
    }

    /** The packet, CRC included: 792 bits, flit k at bits [198k+197 : 198k]. */
    public BitVector toBits() {
        BitVector p = PacketLayout.withFraming(PacketLayout.PACKET.zero())
                .with(HEAD.ROUTE, route.encode())
                .with(HEAD.HOP_PTR, hopPtr)
                .with(HEAD.RT_TYPE, Th2.RT_SOURCE)
                .with(HEAD.DEST_TYPE, destType.code())
                .with(HEAD.SRC_TYPE, srcType.code())
                .with(HEAD.TYPE, Th2.TYPE_MP)
                .with(HEAD.DEST_ID, destId)
                .with(HEAD.SRC_ID, srcId)
                .with(HEAD.DEST_VP, destVp)
                .with(HEAD.SRC_VP, srcVp)
                .with(HEAD.SM, Th2.MANAGEMENT_SM ? 1 : 0)
                .with(HEAD.INST, Th2.MANAGEMENT_INST ? 1 : 0)
                .with(HEAD.RINT, rint ? 1 : 0)
                .with(BODY1.RETURN_ROUTE, returnRoute.encode())
                .with(BODY1.NMP_TYPE, nmpType.code())
                .with(BODY1.TRANSACTION_ID, transactionId)
                .with(PacketLayout.BODY2.NMP_DATA, payload.encode());
        return PacketLayout.withCrc(p);
    }

    /** The 4 flits, head first. */
    public List<BitVector> toFlits() {
        return PacketLayout.toFlits(toBits());
    }

    public static ManagementPacket parse(List<BitVector> flits) {
        return parse(PacketLayout.fromFlits(flits));
    }

    /** Parses and checks a packet: CRC, flit kinds, VC3, length 4, constants, reserved bits, routes, payload. */
    public static ManagementPacket parse(BitVector bits) {
        Header h = header(bits);
        NmpType type = NmpType.fromCode(h.rawType);
        return h.builder.nmpType(type).payload(NmpPayload.decode(type, bits.slice(PacketLayout.BODY2.NMP_DATA))).build();
    }

    /**
     * The error response an NMA sends for request bits it cannot execute (unknown type, bad
     * count, ...): the header must parse; the NMPData is echoed raw.
     */
    public static ManagementPacket errorResponseTo(BitVector requestBits, ChipType responderType, int responderId,
                                                   ErrorCode error, int index) {
        Header h = header(requestBits);
        ErrorPayload p = ErrorPayload.of(error, h.rawType, index, requestBits.slice(PacketLayout.BODY2.NMP_DATA));
        return reply(h.builder, responderType, responderId, NmpType.errorTypeForRaw(h.rawType), p);
    }

    /** The normal response to this request, sent by chip {@code responderId} (TransactionID echoed). */
    public ManagementPacket response(int responderId, NmpPayload responsePayload) {
        requireRequest();
        return reply(toBuilder(), destType, responderId, nmpType.responseType(), responsePayload);
    }

    /** The error response to this (well-formed) request. */
    public ManagementPacket errorResponse(int responderId, ErrorCode error, int index) {
        requireRequest();
        return reply(toBuilder(), destType, responderId, nmpType.errorType(),
                ErrorPayload.of(error, nmpType.code(), index, payload.encode()));
    }

    /** Whether chip {@code chipId} executes this packet: DestID equal, or DestID = 0xFFFF (any). */
    public boolean acceptedBy(int chipId) {
        return destId == chipId || destId == Th2.CHIP_ID_ANY;
    }

    /** All hops used: the chip holding the packet is its destination. */
    public boolean arrived() {
        return hopPtr == route.hopNum();
    }

    /** Output port the current NRC must use: {@code Hop[HopPtr]}. */
    public int currentHop() {
        if (arrived()) {
            throw new IllegalStateException("packet has arrived (HopPtr = HopNum = " + hopPtr + "): no hop left");
        }
        return route.hop(hopPtr);
    }

    /** The packet as it leaves an NRC: HopPtr + 1 (the CRC does not change). */
    public ManagementPacket advance() {
        currentHop();
        return toBuilder().hopPtr(hopPtr + 1).build();
    }

    /** Response header rule: routes swapped, HopPtr 0, source becomes destination, VPs/Rint/TransactionID kept. */
    private static ManagementPacket reply(Builder request, ChipType responderType, int responderId,
                                          NmpType type, NmpPayload p) {
        return new ManagementPacket(0, request.returnRoute, request.route, request.srcType, request.srcId,
                responderType, responderId, request.destVp, request.srcVp, request.rint, request.transactionId, type, p);
    }

    private void requireRequest() {
        if (!nmpType.isRequest()) {
            throw new IllegalStateException(nmpType + " is not a request");
        }
    }

    private record Header(Builder builder, long rawType) {
    }

    private static Header header(BitVector bits) {
        if (bits.width() != Th2.PACKET_BITS) {
            throw new IllegalArgumentException("a management packet is " + Th2.PACKET_BITS + " bits, got " + bits.width());
        }
        if (!PacketLayout.crcMatches(bits)) {
            throw new IllegalArgumentException(String.format("CRC mismatch: packet carries 0x%08x, computed 0x%08x",
                    bits.get(PacketLayout.CRC), PacketLayout.crcOf(bits)));
        }
        for (int i = 0; i < Th2.PACKET_FLITS; i++) {
            FlitLayouts.Flit flit = PacketLayout.FLITS.get(i);
            expect(bits, flit.KIND, flit.kind(), "flit " + i + " (" + flit.name() + ") kind");
        }
        expect(bits, HEAD.VC, Th2.MANAGEMENT_VC, "not a management packet: management packets use VC3;");
        expect(bits, HEAD.LEN, Th2.PACKET_FLITS, "management packets are 4 flits;");
        expect(bits, HEAD.RT_TYPE, Th2.RT_SOURCE, "management packets are source routed;");
        expect(bits, HEAD.TYPE, Th2.TYPE_MP, "management packets are MPs;");
        expect(bits, HEAD.SM, Th2.MANAGEMENT_SM ? 1 : 0, "management packets are single;");
        expect(bits, HEAD.INST, Th2.MANAGEMENT_INST ? 1 : 0, "management packets have Inst = 1;");
        PacketLayout.PACKET.requireReservedZero(bits);
        Builder b = builder()
                .route(RoutingField.decode(bits.slice(HEAD.ROUTE)))
                .hopPtr((int) bits.get(HEAD.HOP_PTR))
                .destType(ChipType.fromCode(bits.get(HEAD.DEST_TYPE)))
                .srcType(ChipType.fromCode(bits.get(HEAD.SRC_TYPE)))
                .destId((int) bits.get(HEAD.DEST_ID))
                .srcId((int) bits.get(HEAD.SRC_ID))
                .destVp((int) bits.get(HEAD.DEST_VP))
                .srcVp((int) bits.get(HEAD.SRC_VP))
                .rint(bits.get(HEAD.RINT) != 0)
                .returnRoute(RoutingField.decode(bits.slice(BODY1.RETURN_ROUTE)))
                .transactionId((int) bits.get(BODY1.TRANSACTION_ID));
        return new Header(b, bits.get(BODY1.NMP_TYPE));
    }

    private static void expect(BitVector bits, Field field, long expected, String context) {
        long actual = bits.get(field);
        if (actual != expected) {
            throw new IllegalArgumentException(context + " " + field.name() + " = " + actual + ", expected " + expected);
        }
    }

    /** Fluent construction; {@link #build()} runs the record's checks. */
    public static final class Builder {
        private int hopPtr;
        private RoutingField route = RoutingField.EMPTY;
        private RoutingField returnRoute = RoutingField.EMPTY;
        private ChipType destType = ChipType.NRC;
        private int destId = Th2.CHIP_ID_ANY;
        private ChipType srcType = ChipType.NIC;
        private int srcId;
        private int destVp;
        private int srcVp;
        private boolean rint;
        private int transactionId;
        private NmpType nmpType;
        private NmpPayload payload;

        private Builder() {
        }

        public Builder hopPtr(int v) { hopPtr = v; return this; }
        public Builder route(RoutingField v) { route = v; return this; }
        public Builder returnRoute(RoutingField v) { returnRoute = v; return this; }
        public Builder destType(ChipType v) { destType = v; return this; }
        public Builder destId(int v) { destId = v; return this; }
        public Builder srcType(ChipType v) { srcType = v; return this; }
        public Builder srcId(int v) { srcId = v; return this; }
        public Builder destVp(int v) { destVp = v; return this; }
        public Builder srcVp(int v) { srcVp = v; return this; }
        public Builder rint(boolean v) { rint = v; return this; }
        public Builder transactionId(int v) { transactionId = v; return this; }
        public Builder nmpType(NmpType v) { nmpType = v; return this; }
        public Builder payload(NmpPayload v) { payload = v; return this; }

        public ManagementPacket build() {
            return new ManagementPacket(hopPtr, route, returnRoute, destType, destId, srcType, srcId,
                    destVp, srcVp, rint, transactionId, nmpType, payload);
        }
    }
}
