package org.flitkit.formats.th2;

/**
 * The 512-bit management descriptor software submits through an SDQ, with every field of
 * the paper; {@link #encode()}/{@link #decode} use {@link DescriptorLayout#DESCRIPTOR}.
 * Spec: shared/spec/20-th2-management.md, "Management packets and descriptors".
 */
public record ManagementDescriptor(
        boolean head, boolean fen, boolean err, boolean lint, boolean rint,
        boolean sm, boolean inst, int type, int rtType,
        ChipType destType, int destId, int transactionId, int destVp, int srcVp,
        RoutingField forwardRoute, RoutingField backwardRoute,
        NmpType nmpType, NmpPayload payload) {

    private static final Layout L = DescriptorLayout.DESCRIPTOR;

    public ManagementDescriptor {
        Checks.range("Type", type, 0, 15);
        Checks.range("RtType", rtType, 0, 3);
        Checks.chipId("DestID", destId);
        Checks.range("TransactionID", transactionId, 0, 0xFFFF);
        Checks.vp("DestVP", destVp);
        Checks.vp("SrcVP", srcVp);
        Checks.notNull("DestType", destType);
        Checks.notNull("FRoutingField", forwardRoute);
        Checks.notNull("BRoutingField", backwardRoute);
        Checks.notNull("NMPType", nmpType);
        Checks.notNull("NMPData", payload);
        if (!nmpType.isRequest()) {
            throw new IllegalArgumentException("descriptor NMPType must be a request, got " + nmpType);
        }
        payload.checkFits(nmpType, destType);
    }

    /** A builder with the management defaults (Head = 1, Type = MP, S/M = 0, Inst = 1, source routing). */
    public static Builder builder() {
        return new Builder();
    }

    public BitVector encode() {
        return L.zero()
                .with(L.field("Head"), bit(head)).with(L.field("Fen"), bit(fen)).with(L.field("Err"), bit(err))
                .with(L.field("Lint"), bit(lint)).with(L.field("Rint"), bit(rint))
                .with(L.field("SM"), bit(sm)).with(L.field("Inst"), bit(inst))
                .with(L.field("Type"), type).with(L.field("RtType"), rtType)
                .with(L.field("DestType"), destType.code()).with(L.field("DestID"), destId)
                .with(L.field("TransactionID"), transactionId)
                .with(L.field("DestVP"), destVp).with(L.field("SrcVP"), srcVp)
                .with(L.field("FRoutingField"), forwardRoute.encode())
                .with(L.field("BRoutingField"), backwardRoute.encode())
                .with(L.field("NMPType"), nmpType.code())
                .with(L.field("NMPData"), payload.encode());
    }

    public static ManagementDescriptor decode(BitVector bits) {
        if (bits.width() != Th2.DESCRIPTOR_BITS) {
            throw new IllegalArgumentException("a descriptor is " + Th2.DESCRIPTOR_BITS + " bits, got " + bits.width());
        }
        L.requireReservedZero(bits);
        NmpType type = NmpType.fromCode(bits.get(L.field("NMPType")));
        return new ManagementDescriptor(
                flag(bits, "Head"), flag(bits, "Fen"), flag(bits, "Err"), flag(bits, "Lint"), flag(bits, "Rint"),
                flag(bits, "SM"), flag(bits, "Inst"), (int) bits.get(L.field("Type")), (int) bits.get(L.field("RtType")),
                ChipType.fromCode(bits.get(L.field("DestType"))), (int) bits.get(L.field("DestID")),
                (int) bits.get(L.field("TransactionID")),
                (int) bits.get(L.field("DestVP")), (int) bits.get(L.field("SrcVP")),
                RoutingField.decode(bits.slice(L.field("FRoutingField"))),
                RoutingField.decode(bits.slice(L.field("BRoutingField"))),
                type, NmpPayload.decode(type, bits.slice(L.field("NMPData"))));
    }

    private static boolean flag(BitVector bits, String name) {
        return bits.get(L.field(name)) != 0;
    }

    private static long bit(boolean b) {
        return b ? 1 : 0;
    }

    /** Fluent construction; {@link #build()} runs the record's checks. */
    public static final class Builder {
        private boolean head = true;
        private boolean fen;
        private boolean err;
        private boolean lint;
        private boolean rint;
        private boolean sm = Th2.MANAGEMENT_SM;
        private boolean inst = Th2.MANAGEMENT_INST;
        private int type = Th2.TYPE_MP;
        private int rtType = Th2.RT_SOURCE;
        private ChipType destType = ChipType.NRC;
        private int destId = Th2.CHIP_ID_ANY;
        private int transactionId;
        private int destVp;
        private int srcVp;
        private RoutingField forwardRoute = RoutingField.EMPTY;
        private RoutingField backwardRoute = RoutingField.EMPTY;
        private NmpType nmpType;
        private NmpPayload payload;

        private Builder() {
        }

        public Builder head(boolean v) { head = v; return this; }
        public Builder fen(boolean v) { fen = v; return this; }
        public Builder err(boolean v) { err = v; return this; }
        public Builder lint(boolean v) { lint = v; return this; }
        public Builder rint(boolean v) { rint = v; return this; }
        public Builder sm(boolean v) { sm = v; return this; }
        public Builder inst(boolean v) { inst = v; return this; }
        public Builder type(int v) { type = v; return this; }
        public Builder rtType(int v) { rtType = v; return this; }
        public Builder destType(ChipType v) { destType = v; return this; }
        public Builder destId(int v) { destId = v; return this; }
        public Builder transactionId(int v) { transactionId = v; return this; }
        public Builder destVp(int v) { destVp = v; return this; }
        public Builder srcVp(int v) { srcVp = v; return this; }
        public Builder forwardRoute(RoutingField v) { forwardRoute = v; return this; }
        public Builder backwardRoute(RoutingField v) { backwardRoute = v; return this; }
        public Builder nmpType(NmpType v) { nmpType = v; return this; }
        public Builder payload(NmpPayload v) { payload = v; return this; }

        /** Sets both NMPType and NMPData. */
        public Builder request(NmpType t, NmpPayload p) { nmpType = t; payload = p; return this; }

        public ManagementDescriptor build() {
            return new ManagementDescriptor(head, fen, err, lint, rint, sm, inst, type, rtType, destType, destId,
                    transactionId, destVp, srcVp, forwardRoute, backwardRoute, nmpType, payload);
        }
    }
}
