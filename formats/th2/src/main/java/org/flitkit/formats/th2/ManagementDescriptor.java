package org.flitkit.formats.th2;

import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;

/**
 * The 512-bit management descriptor software submits through an SDQ, with every field of
 * the paper; {@link #encode()}/{@link #decode} use {@link DescriptorLayout#DESCRIPTOR}.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public record ManagementDescriptor(
        boolean head, boolean fen, boolean err, boolean lint, boolean rint,
        boolean sm, boolean inst, int type, int rtType,
        ChipType destType, int destId, int transactionId, int destVp, int srcVp,
        RoutingField forwardRoute, RoutingField backwardRoute,
        NmpType nmpType, NmpPayload payload) {

    private static final DescriptorLayout.Descriptor L = DescriptorLayout.DESCRIPTOR;

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
                .with(L.HEAD, bit(head)).with(L.FEN, bit(fen)).with(L.ERR, bit(err))
                .with(L.LINT, bit(lint)).with(L.RINT, bit(rint))
                .with(L.SM, bit(sm)).with(L.INST, bit(inst))
                .with(L.TYPE, type).with(L.RT_TYPE, rtType)
                .with(L.DEST_TYPE, destType.code()).with(L.DEST_ID, destId)
                .with(L.TRANSACTION_ID, transactionId)
                .with(L.DEST_VP, destVp).with(L.SRC_VP, srcVp)
                .with(L.F_ROUTING_FIELD, forwardRoute.encode())
                .with(L.B_ROUTING_FIELD, backwardRoute.encode())
                .with(L.NMP_TYPE, nmpType.code())
                .with(L.NMP_DATA, payload.encode());
    }

    public static ManagementDescriptor decode(BitVector bits) {
        if (bits.width() != Th2.DESCRIPTOR_BITS) {
            throw new IllegalArgumentException("a descriptor is " + Th2.DESCRIPTOR_BITS + " bits, got " + bits.width());
        }
        L.layout().requireReservedZero(bits);
        NmpType type = NmpType.fromCode(bits.get(L.NMP_TYPE));
        return new ManagementDescriptor(
                flag(bits, L.HEAD), flag(bits, L.FEN), flag(bits, L.ERR), flag(bits, L.LINT), flag(bits, L.RINT),
                flag(bits, L.SM), flag(bits, L.INST), (int) bits.get(L.TYPE), (int) bits.get(L.RT_TYPE),
                ChipType.fromCode(bits.get(L.DEST_TYPE)), (int) bits.get(L.DEST_ID),
                (int) bits.get(L.TRANSACTION_ID),
                (int) bits.get(L.DEST_VP), (int) bits.get(L.SRC_VP),
                RoutingField.decode(bits.slice(L.F_ROUTING_FIELD)),
                RoutingField.decode(bits.slice(L.B_ROUTING_FIELD)),
                type, NmpPayload.decode(type, bits.slice(L.NMP_DATA)));
    }

    private static boolean flag(BitVector bits, Field f) {
        return bits.get(f) != 0;
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
