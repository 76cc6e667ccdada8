package org.flitkit.rtl.nma;

import static org.flitkit.formats.th2.PacketLayout.BODY1;
import static org.flitkit.formats.th2.PacketLayout.BODY2;
import static org.flitkit.formats.th2.PacketLayout.HEAD;
import static org.flitkit.hdl.Hdl.*;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.hw.Crc32cHw;
import org.flitkit.rtl.nma.hw.RegBus;
import org.flitkit.rtl.nma.hw.Responses;

/**
 * {@code reg_access}: decodes a register read/write request of 1 or 2 registers, drives one RegBus access
 * per cycle and answers a read with the data once read, a write as soon as it is accepted (checked against
 * the register map, before its RegBus writes), or with an error response (bad count, reserved bits, address
 * out of range, unmapped, read-only). Spec: 20-th2-management.md, "NMA submodules" (reg_access) and
 * "Management packets and descriptors" (1 or 2 registers per packet; a write is answered on acceptance).
 */
public final class RegAccess extends Module {
    /** Register request packets (REG_READ_REQ / REG_WRITE_REQ, already checked by the distributor). */
    public final Decoupled<UInt> in = input(PacketWords.packetStream());
    /** Responses and error responses, CRC included. */
    public final Decoupled<UInt> out = output(PacketWords.packetStream());
    public final RegBus bus;
    /** This chip's ID (CHIP_ID register): SrcID of the answers. */
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    /** High while a request is being executed (its register accesses not all done), also after a write's answer. */
    public final Bool busyOut = output(Bool());
    public final int addrBits;

    private static final PayloadLayouts.RegisterAccess L = PayloadLayouts.REGISTER;

    private final UInt req = reg(UInt(Th2.PACKET_BITS));
    private final Bool busy = regInit(Bool(), 0);
    /** index of the access in progress (0 or 1) */
    private final Bool idx = regInit(Bool(), 0);
    /** the write in progress stops after register 0 (register 1 failed the acceptance check, already answered) */
    private final Bool onlyFirst = regInit(Bool(), 0);
    private final UInt rdata0 = reg(UInt(64));
    private final Bool outValid = regInit(Bool(), 0);
    /** the answer, without its CRC (added after the register) */
    private final UInt outPkt = regInit(UInt(Th2.PACKET_BITS), 0);

    /**
     * @param map the register map of the register file behind {@link #bus} (RegisterFile.check'ed): a write
     *            is checked against it on acceptance, so that it can be answered before it is performed
     */
    public RegAccess(int addrBits, List<RegDef> map) {
        if (addrBits < 1 || addrBits > 15) {
            throw new IllegalArgumentException("register address width " + addrBits + " must be 1..15");
        }
        this.addrBits = addrBits;
        bus = output(new RegBus(addrBits));

        // ---- a write: checked and answered in the cycle it is accepted; its RegBus writes follow
        Request w = new Request(in.bits);
        Bool ro0 = RegisterFile.readOnly(map, w.addr0);
        Bool bad0 = RegisterFile.mapped(map, w.addr0).not().or(ro0);
        Bool ro1 = RegisterFile.readOnly(map, w.addr1);
        Bool bad1 = w.count.eq(2).and(RegisterFile.mapped(map, w.addr1).not().or(ro1));
        UInt badCode = mux(mux(bad0, ro0, ro1), Responses.code(ErrorCode.READ_ONLY), Responses.code(ErrorCode.UNMAPPED_ADDRESS));
        UInt wError = Responses.errorResponseNoCrc(in.bits, w.srcType, chipId,
                mux(w.staticErr, w.staticCode, badCode),
                mux(w.staticErr, w.staticIdx, mux(bad0, Responses.index(0), Responses.index(1))));
        UInt wAnswer = Responses.responseNoCrc(in.bits, w.srcType, chipId, Responses.responseType(in.bits), w.payload(null, null));
        Bool acceptWrite = in.fire().and(w.isWrite);

        in.ready.assign(busy.not().and(outValid.not()));
        when(in.fire(), () -> {
            req.assign(in.bits);
            idx.assign(FALSE());
            // a read executes; a write executes its registers up to the first bad one (none written if register 0 is bad)
            busy.assign(w.isWrite.not().or(w.staticErr.not().and(bad0.not())));
            onlyFirst.assign(w.isWrite.and(bad1));
        });

        // ---- the request being executed
        Request r = new Request(req);
        Bool active = busy.and(r.staticErr.not());
        bus.addr.assign(mux(idx, r.addr1, r.addr0).trunc(addrBits));
        bus.wdata.assign(mux(idx, r.data1, r.data0));
        bus.read.assign(active.and(r.isWrite.not()));
        bus.write.assign(active.and(r.isWrite));
        // a write cannot fail here (checked on acceptance against the same map); a read of an unmapped register can
        Bool accErr = active.and(r.isWrite.not()).and(bus.error);
        Bool last = idx.or(r.count.eq(1)).or(onlyFirst);

        UInt answer = Responses.responseNoCrc(req, r.srcType, chipId, Responses.responseType(req),
                r.payload(mux(idx, rdata0, bus.rdata), mux(idx, bus.rdata, lit(0, 64))));
        UInt error = Responses.errorResponseNoCrc(req, r.srcType, chipId,
                mux(r.staticErr, r.staticCode, Responses.code(ErrorCode.UNMAPPED_ADDRESS)),
                mux(r.staticErr, r.staticIdx, cat(lit(0, 2), idx)));

        when(out.fire(), () -> outValid.assign(FALSE()));
        when(acceptWrite, () -> {
            outPkt.assign(mux(w.staticErr.or(bad0).or(bad1), wError, wAnswer));
            outValid.assign(TRUE());
        });
        when(busy, () -> {
            when(r.isWrite, () -> {
                // answered on acceptance: just perform the writes
                when(last, () -> busy.assign(FALSE())).otherwise(() -> idx.assign(TRUE()));
            }).elsewhen(r.staticErr.or(accErr), () -> {
                outPkt.assign(error);
                outValid.assign(TRUE());
                busy.assign(FALSE());
            }).elsewhen(last, () -> {
                outPkt.assign(answer);
                outValid.assign(TRUE());
                busy.assign(FALSE());
            }).otherwise(() -> {
                rdata0.assign(bus.rdata);
                idx.assign(TRUE());
            });
        });
        out.valid.assign(outValid);
        out.bits.assign(Crc32cHw.withCrc(outPkt));
        busyOut.assign(busy);
    }

    /** The decoded fields and the static checks (those that need no register map) of one request packet. */
    private final class Request {
        final UInt count;
        final Bool isWrite;
        final UInt addr0;
        final UInt addr1;
        final UInt data0;
        final UInt data1;
        final UInt srcType;
        final Bool staticErr;
        final UInt staticCode;
        final UInt staticIdx;

        Request(UInt pkt) {
            count = PacketWords.payload(pkt, L.COUNT);
            isWrite = LayoutBits.get(pkt, BODY1.NMP_TYPE).eq(NmpType.REG_WRITE_REQ.code());
            addr0 = PacketWords.payload(pkt, L.addr(0));
            addr1 = PacketWords.payload(pkt, L.addr(1));
            data0 = PacketWords.payload(pkt, L.data(0));
            data1 = PacketWords.payload(pkt, L.data(1));
            srcType = LayoutBits.get(pkt, HEAD.DEST_TYPE);
            UInt nmp = LayoutBits.get(pkt, BODY2.NMP_DATA);
            Bool badCount = count.eq(0).or(count.gt(Th2.MAX_REGISTERS));
            Bool reservedSet = LayoutBits.reservedSet(nmp, L.layout());
            Bool unusedSet = count.eq(1).and(addr1.orR().or(data1.orR()))
                    .or(isWrite.not().and(data0.orR().or(data1.orR())));
            Bool reserved = reservedSet.or(unusedSet);
            Bool range0 = outOfRange(addr0);
            Bool range1 = outOfRange(addr1).and(count.eq(2));
            staticErr = badCount.or(reserved).or(range0).or(range1);
            staticCode = mux(badCount, Responses.code(ErrorCode.BAD_COUNT),
                    mux(reserved, Responses.code(ErrorCode.RESERVED_NOT_ZERO), Responses.code(ErrorCode.ADDRESS_OUT_OF_RANGE)));
            staticIdx = mux(badCount.or(reserved), Responses.index(PayloadLayouts.WHOLE_REQUEST),
                    mux(range0, Responses.index(0), Responses.index(1)));
        }

        /** The response payload: addresses echoed, the read data (null, null for a write: zeros). */
        UInt payload(UInt rd0, UInt rd1) {
            Map<Field, Bits> p = new LinkedHashMap<>();
            p.put(L.COUNT, count);
            p.put(L.addr(0), addr0);
            p.put(L.addr(1), addr1);
            p.put(L.data(0), rd0 == null ? lit(0, 64) : mux(isWrite, lit(0, 64), rd0));
            p.put(L.data(1), rd1 == null ? lit(0, 64) : mux(isWrite.or(count.eq(1)), lit(0, 64), rd1));
            return LayoutBits.build(L.layout(), p);
        }
    }

    /** An address with bits set above the chip's address width (15-bit field, 12 bits used on the NIC). */
    private Bool outOfRange(UInt addr) {
        return addrBits >= addr.width() ? FALSE() : addr.bits(addr.width() - 1, addrBits).orR();
    }
}
