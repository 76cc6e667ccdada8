package org.flitkit.rtl.nma;

import static org.flitkit.formats.th2.PacketLayout.BODY1;
import static org.flitkit.formats.th2.PacketLayout.BODY2;
import static org.flitkit.formats.th2.PacketLayout.HEAD;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.*;
import static org.flitkit.hdl.lib.OneHot.*;
import java.util.ArrayList;
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
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.hw.Crc32cHw;
import org.flitkit.rtl.nma.hw.Responses;

/**
 * {@code active_report}: watches N fault inputs; a rising fault whose code is not masked (FAULT_MASK)
 * sets its pending bit (W1C, in the register file) and, if its code is enabled (REPORT_ENABLE), queues
 * one FAULT_REPORT packet to REPORT_ROUTE / REPORT_DEST, TransactionID = the report sequence number.
 * Spec: 20-th2-management.md, function 3 and "NMA submodules" (active_report); docs/th2-nma.md.
 */
public final class ActiveReport extends Module {
    public final int n;
    public final List<FaultSource> sources;
    /** Fault levels, bit i = fault input i (active high). */
    public final UInt faults;
    public final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    /** Free-running cycle counter (CYCLE_COUNT): the timestamp of a fault. */
    public final UInt cycle = input(UInt(64));
    public final UInt enable = input(UInt(64));
    public final UInt mask = input(UInt(64));
    public final UInt routeLo = input(UInt(64));
    public final UInt routeHi = input(UInt(64));
    public final UInt dest = input(UInt(64));
    /** FAULT_STATUS: bit c = some fault input of code c is high (before masking). */
    public final UInt status = output(UInt(64));
    /** Rising unmasked faults this cycle: the set bits of the FAULT_PENDING words. */
    public final UInt pendingSet;
    /** REPORT_SEQ: sequence number of the next report. */
    public final UInt seq = output(UInt(16));
    public final Decoupled<UInt> out = output(PacketWords.packetStream());

    private final UInt prev;
    /** reports waiting to be built, one bit per fault input */
    private final UInt want;
    private final List<UInt> stamps = new ArrayList<>();
    private final UInt seqReg = regInit(UInt(16), 0);
    private final Bool outValid = regInit(Bool(), 0);
    private final UInt outPkt = regInit(UInt(Th2.PACKET_BITS), 0);

    public ActiveReport(ChipType chip, List<FaultSource> sources) {
        this.sources = List.copyOf(sources);
        this.n = sources.size();
        if (n < 1) {
            throw new IllegalArgumentException("active_report needs at least one fault input");
        }
        faults = input(UInt(n));
        pendingSet = output(UInt(n));
        prev = regInit(UInt(n), 0);
        want = regInit(UInt(n), 0);
        prev.assign(faults);

        List<Bool> rise = new ArrayList<>();
        List<Bool> report = new ArrayList<>();
        List<List<Bool>> byCode = new ArrayList<>();
        for (int c = 0; c < FaultCode.MASKABLE; c++) {
            byCode.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            FaultSource s = sources.get(i);
            Bool r = faults.bit(i).and(prev.bit(i).not()).and(mask.bit(s.code()).not());
            rise.add(r);
            report.add(r.and(enable.bit(s.code())));
            byCode.get(s.code()).add(faults.bit(i));
            UInt ts = reg(UInt(64)).named("stamp_" + i);
            when(r, () -> ts.assign(cycle));
            stamps.add(ts);
        }
        List<Bool> statusBits = new ArrayList<>();
        for (List<Bool> l : byCode) {
            statusBits.add(l.isEmpty() ? FALSE() : fromBools(l).orR());
        }
        status.assign(fromBools(statusBits));
        pendingSet.assign(fromBools(rise));
        seq.assign(seqReg);

        // pick the lowest waiting input; build its packet into the output register when it is free
        List<Bool> pick = PriorityEncoderOH(asBools(want));
        Bool any = want.orR();
        Bool build = any.and(outValid.not());
        List<UInt> codes = new ArrayList<>();
        List<UInt> ports = new ArrayList<>();
        for (FaultSource s : this.sources) {
            codes.add(lit(s.code(), FaultCode.BITS));
            ports.add(lit(s.port(), 5));
        }
        PayloadLayouts.FaultReport fault = PayloadLayouts.FAULT;
        Map<Field, Bits> payload = new LinkedHashMap<>();
        payload.put(fault.FAULT_CODE, Mux1H(pick, codes));
        payload.put(fault.FAULT_PORT, Mux1H(pick, ports));
        payload.put(fault.FAULT_STATUS, status);
        payload.put(fault.TIMESTAMP, Mux1H(pick, stamps));

        Map<Field, Bits> p = Responses.framing();
        p.put(HEAD.ROUTE, cat(routeHi.bits(Th2.ROUTE_BITS - 65, 0), routeLo));
        p.put(HEAD.DEST_TYPE, lit(ChipType.NIC.code(), 2));
        p.put(HEAD.DEST_ID, dest.bits(15, 0));
        p.put(HEAD.SRC_TYPE, lit(chip.code(), 2));
        p.put(HEAD.SRC_ID, chipId);
        p.put(HEAD.DEST_VP, dest.bits(NmaRegisters.REPORT_DEST_VP_LSB + 5, NmaRegisters.REPORT_DEST_VP_LSB));
        p.put(HEAD.RINT, dest.bit(NmaRegisters.REPORT_DEST_RINT_BIT));
        p.put(BODY1.TRANSACTION_ID, seqReg);
        p.put(BODY1.NMP_TYPE, lit(NmpType.FAULT_REPORT.code(), NmpType.BITS));
        p.put(BODY2.NMP_DATA, LayoutBits.build(fault.layout(), payload));
        UInt packet = LayoutBits.build(PacketLayout.PACKET, p);

        UInt served = mux(build, fromBools(pick), lit(0, n));
        want.assign(want.and(served.not()).or(fromBools(report)));
        when(out.fire(), () -> outValid.assign(FALSE()));
        when(build, () -> {
            outPkt.assign(packet);
            outValid.assign(TRUE());
            seqReg.assign(seqReg.add(1));
        });
        out.valid.assign(outValid);
        out.bits.assign(Crc32cHw.withCrc(outPkt));
    }
}
