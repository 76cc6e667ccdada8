package org.flitkit.rtl.nma;

import static org.flitkit.formats.th2.PacketLayout.BODY1;
import static org.flitkit.formats.th2.PacketLayout.BODY2;
import static org.flitkit.formats.th2.PacketLayout.HEAD;
import static org.flitkit.hdl.Hdl.*;

import java.util.LinkedHashMap;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.Field;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.hw.Crc32cHw;
import org.flitkit.rtl.nma.hw.PacketBits;
import org.flitkit.rtl.nma.hw.RegBus;
import org.flitkit.rtl.nma.hw.Responses;

/**
 * {@code reg_access}: decodes a register read/write request of 1 or 2 registers, drives one RegBus access
 * per cycle and answers with the read data or the write acceptance, or with an error response
 * (bad count, reserved bits, address out of range, unmapped, read-only). Spec: 20-th2-management.md,
 * "NMA submodules" (reg_access) and "Management packets and descriptors" (1 or 2 registers per packet).
 */
public final class RegAccess extends Module {
    /** Register request packets (REG_READ_REQ / REG_WRITE_REQ, already checked by the distributor). */
    public final Decoupled<UInt> in = input(PacketBits.packetStream());
    /** Responses and error responses, CRC included. */
    public final Decoupled<UInt> out = output(PacketBits.packetStream());
    public final RegBus bus;
    /** This chip's ID (CHIP_ID register): SrcID of the answers. */
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    /** High while a request is being executed (its register accesses not all done). */
    public final Bool busyOut = output(Bool());
    public final int addrBits;

    private static final PayloadLayouts.RegisterAccess L = PayloadLayouts.REGISTER;

    private final UInt req = reg(UInt(Th2.PACKET_BITS));
    private final Bool busy = regInit(Bool(), 0);
    /** index of the access in progress (0 or 1) */
    private final Bool idx = regInit(Bool(), 0);
    private final UInt rdata0 = reg(UInt(64));
    private final Bool outValid = regInit(Bool(), 0);
    /** the answer, without its CRC (added after the register) */
    private final UInt outPkt = regInit(UInt(Th2.PACKET_BITS), 0);

    public RegAccess(int addrBits) {
        if (addrBits < 1 || addrBits > 15) {
            throw new IllegalArgumentException("register address width " + addrBits + " must be 1..15");
        }
        this.addrBits = addrBits;
        bus = output(new RegBus(addrBits));

        in.ready.assign(busy.not().and(outValid.not()));
        when(in.fire(), () -> {
            req.assign(in.bits);
            busy.assign(TRUE());
            idx.assign(FALSE());
        });

        UInt count = PacketBits.payload(req, L.COUNT);
        Bool isWrite = PacketBits.get(req, BODY1.NMP_TYPE).eq(NmpType.REG_WRITE_REQ.code());
        UInt addr0 = PacketBits.payload(req, L.addr(0));
        UInt addr1 = PacketBits.payload(req, L.addr(1));
        UInt data0 = PacketBits.payload(req, L.data(0));
        UInt data1 = PacketBits.payload(req, L.data(1));
        UInt nmp = PacketBits.get(req, BODY2.NMP_DATA);

        Bool badCount = count.eq(0).or(count.gt(Th2.MAX_REGISTERS));
        Bool reservedSet = PacketBits.reservedSet(nmp, L.layout());
        Bool unusedSet = count.eq(1).and(addr1.orR().or(data1.orR()))
                .or(isWrite.not().and(data0.orR().or(data1.orR())));
        Bool reserved = reservedSet.or(unusedSet);
        Bool range0 = outOfRange(addr0);
        Bool range1 = outOfRange(addr1).and(count.eq(2));
        Bool staticErr = badCount.or(reserved).or(range0).or(range1);
        UInt staticCode = mux(badCount, Responses.code(ErrorCode.BAD_COUNT),
                mux(reserved, Responses.code(ErrorCode.RESERVED_NOT_ZERO), Responses.code(ErrorCode.ADDRESS_OUT_OF_RANGE)));
        UInt staticIdx = mux(badCount.or(reserved), Responses.index(PayloadLayouts.WHOLE_REQUEST),
                mux(range0, Responses.index(0), Responses.index(1)));

        Bool active = busy.and(staticErr.not());
        bus.addr.assign(mux(idx, addr1, addr0).trunc(addrBits));
        bus.wdata.assign(mux(idx, data1, data0));
        bus.read.assign(active.and(isWrite.not()));
        bus.write.assign(active.and(isWrite));
        Bool accErr = active.and(bus.error);
        UInt accCode = mux(bus.readOnly, Responses.code(ErrorCode.READ_ONLY), Responses.code(ErrorCode.UNMAPPED_ADDRESS));
        Bool last = idx.or(count.eq(1));

        UInt srcType = PacketBits.get(req, HEAD.DEST_TYPE);
        Map<Field, Bits> p = new LinkedHashMap<>();
        p.put(L.COUNT, count);
        p.put(L.addr(0), addr0);
        p.put(L.addr(1), addr1);
        p.put(L.data(0), mux(isWrite, lit(0, 64), mux(idx, rdata0, bus.rdata)));
        p.put(L.data(1), mux(isWrite.or(idx.not()), lit(0, 64), bus.rdata));
        UInt answer = Responses.responseNoCrc(req, srcType, chipId, Responses.responseType(req),
                PacketBits.build(L.layout(), p));
        UInt error = Responses.errorResponseNoCrc(req, srcType, chipId,
                mux(staticErr, staticCode, accCode), mux(staticErr, staticIdx, cat(lit(0, 2), idx)));

        when(out.fire(), () -> outValid.assign(FALSE()));
        when(busy, () -> {
            when(staticErr.or(accErr), () -> {
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

    /** An address with bits set above the chip's address width (15-bit field, 12 bits used on the NIC). */
    private Bool outOfRange(UInt addr) {
        return addrBits >= addr.width() ? FALSE() : addr.bits(addr.width() - 1, addrBits).orR();
    }
}
