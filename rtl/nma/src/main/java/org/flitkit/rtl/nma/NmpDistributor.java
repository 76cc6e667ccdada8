package org.flitkit.rtl.nma;

import static org.flitkit.formats.th2.FlitLayouts.ROUTE;
import static org.flitkit.formats.th2.PacketLayout.BODY1;
import static org.flitkit.formats.th2.PacketLayout.HEAD;
import static org.flitkit.hdl.Hdl.*;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.hw.Crc32cHw;
import org.flitkit.rtl.nma.hw.Responses;

/**
 * {@code nmp_distributor}: holds one request packet and dispatches it by NMPType to reg_access
 * ({@link #reg}), eep_access ({@link #eep}) or, for an unknown request type or a wrong DestType, straight
 * to an error response ({@link #err}); drops (and flags) packets with a bad CRC, bad framing or reserved
 * header bits, a chip-to-server type, or a DestID that is neither CHIP_ID nor 0xFFFF.
 * Spec: 20-th2-management.md, "NMA submodules" (nmp_distributor); docs/th2-nma.md.
 */
public final class NmpDistributor extends Module {
    public final Decoupled<UInt> in = input(PacketWords.packetStream());
    /** REG_READ_REQ / REG_WRITE_REQ packets. */
    public final Decoupled<UInt> reg = output(PacketWords.packetStream());
    /** EEP_READ_REQ / EEP_WRITE_REQ packets. */
    public final Decoupled<UInt> eep = output(PacketWords.packetStream());
    /** Error responses (BAD_TYPE, BAD_DEST_TYPE), CRC included. */
    public final Decoupled<UInt> err = output(PacketWords.packetStream());
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    /**
     * High while reg_access executes a request (which may write CHIP_ID): the held packet is neither
     * checked nor dispatched until then, so a request after a CHIP_ID write sees the new ID.
     */
    public final Bool hold = input(Bool());
    /** One-cycle pulses: a packet was dropped for its CRC, its DestID, or as malformed. */
    public final Bool crcDrop = output(Bool());
    public final Bool destIdDrop = output(Bool());
    public final Bool malformedDrop = output(Bool());
    /** One-cycle pulse: a request left towards reg_access, eep_access or the error path. */
    public final Bool dispatched = output(Bool());

    private final UInt pkt = regInit(UInt(Th2.PACKET_BITS), 0);
    private final Bool full = regInit(Bool(), 0);

    public NmpDistributor(ChipType chip) {
        UInt type = LayoutBits.get(pkt, BODY1.NMP_TYPE);
        Bool crcOk = Crc32cHw.of(pkt).eq(LayoutBits.get(pkt, PacketLayout.CRC));
        // the four flits' reserved bits; those of the NMPData views are checked by the function blocks
        Bool framingOk = PacketWords.managementFraming(pkt).and(headerOk()).and(LayoutBits.reservedSet(pkt, PacketLayout.PACKET).not());
        Bool isRequest = type.bit(0).not();
        UInt destId = LayoutBits.get(pkt, HEAD.DEST_ID);
        Bool destOk = destId.eq(chipId).or(destId.eq(Th2.CHIP_ID_ANY));
        Bool destTypeOk = LayoutBits.get(pkt, HEAD.DEST_TYPE).eq(chip.code());
        Bool isReg = type.eq(NmpType.REG_READ_REQ.code()).or(type.eq(NmpType.REG_WRITE_REQ.code()));
        Bool isEep = type.eq(NmpType.EEP_READ_REQ.code()).or(type.eq(NmpType.EEP_WRITE_REQ.code()));

        Bool act = full.and(hold.not());
        Bool crcBad = act.and(crcOk.not());
        Bool malformed = act.and(crcOk).and(framingOk.not().or(isRequest.not()));
        Bool destBad = act.and(crcOk).and(framingOk).and(isRequest).and(destOk.not());
        Bool good = act.and(crcOk).and(framingOk).and(isRequest).and(destOk);
        Bool toReg = good.and(destTypeOk).and(isReg);
        Bool toEep = good.and(destTypeOk).and(isEep);
        Bool toErr = good.and(destTypeOk.not().or(isReg.not().and(isEep.not())));

        reg.valid.assign(toReg);
        reg.bits.assign(pkt);
        eep.valid.assign(toEep);
        eep.bits.assign(pkt);
        err.valid.assign(toErr);
        err.bits.assign(Responses.errorResponse(pkt, lit(chip.code(), 2), chipId,
                mux(destTypeOk, Responses.code(ErrorCode.BAD_TYPE), Responses.code(ErrorCode.BAD_DEST_TYPE)),
                Responses.index(PayloadLayouts.WHOLE_REQUEST)));

        Bool drop = crcBad.or(malformed).or(destBad);
        Bool sent = reg.fire().or(eep.fire()).or(err.fire());
        Bool leaving = drop.or(sent);
        crcDrop.assign(crcBad);
        malformedDrop.assign(malformed);
        destIdDrop.assign(destBad);
        dispatched.assign(sent);

        in.ready.assign(full.not().or(leaving));
        when(leaving, () -> full.assign(FALSE()));
        when(in.fire(), () -> {
            pkt.assign(in.bits);
            full.assign(TRUE());
        });
    }

    /**
     * The header fields hold legal values (what the software model needs to parse it and answer):
     * chip types 0/1, VPs 0..39, both routes well formed, HopPtr <= HopNum.
     */
    private Bool headerOk() {
        UInt route = LayoutBits.get(pkt, HEAD.ROUTE);
        return LayoutBits.get(pkt, HEAD.DEST_TYPE).lt(2)
                .and(LayoutBits.get(pkt, HEAD.SRC_TYPE).lt(2))
                .and(LayoutBits.get(pkt, HEAD.DEST_VP).lt(Th2.VP_COUNT))
                .and(LayoutBits.get(pkt, HEAD.SRC_VP).lt(Th2.VP_COUNT))
                .and(routeOk(route))
                .and(routeOk(LayoutBits.get(pkt, BODY1.RETURN_ROUTE)))
                .and(LayoutBits.get(pkt, HEAD.HOP_PTR).le(LayoutBits.get(route, ROUTE.HOP_NUM)));
    }

    /** HopNum <= 20, used hops are ports 0..23, unused hop slots are 0. */
    public static Bool routeOk(UInt route) {
        UInt hopNum = LayoutBits.get(route, ROUTE.HOP_NUM);
        Bool ok = hopNum.le(Th2.MAX_HOPS);
        for (int i = 0; i < Th2.MAX_HOPS; i++) {
            UInt hop = LayoutBits.get(route, ROUTE.hop(i));
            ok = ok.and(mux(hopNum.gt(i), hop.lt(Th2.NRC_PORTS), hop.eq(0)));
        }
        return ok;
    }
}
