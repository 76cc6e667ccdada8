package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Arbiter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.DescError;
import org.flitkit.formats.th2.DescriptorLayout;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PayloadLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.NmpDistributor;

/**
 * Descriptor dispatch (paper: NIC flow (1)): a fetched descriptor either goes to the MP send unit, or is
 * refused with a DESC_ERROR event (Err: the first failing {@link DescError} check), or (Fen with answers
 * still outstanding for its VP) is left in its queue while the VP is parked until its answers are in or
 * the fence times out. Read errors become FETCH_ERROR events and the descriptor is skipped.
 * docs/th2-nic.md, "Host-visible queues" (Err, Fen).
 */
public final class DescDispatch extends Module {
    /** Cycles per unit of {@link #fenceTimeout}. */
    public static final int FENCE_TICK = 1024;
    /** Outstanding answers counted per VP (saturating). */
    public static final int OUTSTANDING_BITS = 8;

    public final Decoupled<FetchedDesc> in = input(Decoupled.of(FetchedDesc::new));
    /** Good descriptors, to the MP send unit. */
    public final Decoupled<FetchedDesc> toSend = output(Decoupled.of(FetchedDesc::new));
    public final Decoupled<EventReq> events = output(Decoupled.of(EventReq::new));
    /** The descriptor was used or skipped: its queue index advances. */
    public final Valid<UInt> consume = output(Valid.of(UInt(6)));
    /** The fetch of this VP is settled (the arbiter may choose it again). */
    public final Valid<UInt> done = output(Valid.of(UInt(6)));
    /** An answer to a request of this VP (its SrcVP) reached an MPQ or was dropped there. */
    public final Valid<UInt> answered = input(Valid.of(UInt(6)));
    /** Fence timeout in units of {@link #FENCE_TICK} cycles (a register). */
    public final UInt fenceTimeout = input(UInt(16));
    public final UInt parked;
    public final Vec<UInt> outstanding;
    /** One-cycle pulses for the counters. */
    public final Bool descError = output(Bool());
    public final Bool fetchError = output(Bool());
    public final Bool fenceExpired = output(Bool());

    public DescDispatch(int vps) {
        parked = output(UInt(vps));
        outstanding = output(Vec(vps, () -> UInt(OUTSTANDING_BITS)));
        DescriptorLayout.Descriptor D = DescriptorLayout.DESCRIPTOR;
        FetchedDesc f = in.bits;
        UInt d = f.desc;

        Vec<UInt> outstandingCount = regInit(Vec(vps, () -> UInt(OUTSTANDING_BITS)), 0).named("outstandingCount");
        Vec<Bool> park = regInit(Vec(vps, () -> Bool()), 0).named("park");
        Vec<UInt> parkAge = regInit(Vec(vps, () -> UInt(16)), 0).named("parkAge");
        // fence ages count in ticks of FENCE_TICK cycles from the first VP parked; the prescaler stops at 0 while
        // none is, so an idle NIC has no timer running (and can sleep)
        UInt prescale = regInit(UInt(10), 0).named("prescale");
        Bool anyParked = park.asList().stream().reduce(Bool::or).orElseThrow();
        when(anyParked, () -> prescale.assign(prescale.add(1))).otherwise(() -> prescale.assign(0));
        Bool tick = anyParked.and(prescale.andR());

        Bool fetchErr = f.status.ne(0);
        Bool fenceWait = fetchErr.not().and(LayoutBits.get(d, D.FEN).eq(1)).and(outstandingCount.at(f.vp).ne(0));
        UInt errCode = checks(d, f.vp, vps);
        Bool refused = errCode.ne(0);
        Bool good = fetchErr.not().and(fenceWait.not()).and(refused.not());
        Bool wantsEvent = fetchErr.or(fenceWait.not().and(refused));

        Arbiter<EventReq> evArb = instance(new Arbiter<>(EventReq::new, 2));
        Decoupled<EventReq> ev = evArb.in.get(0);
        ev.valid.assign(in.valid.and(wantsEvent));
        ev.bits.vp.assign(f.vp);
        ev.bits.type.assign(mux(fetchErr, lit(NicEvent.FETCH_ERROR.code(), NicEvent.BITS), lit(NicEvent.DESC_ERROR.code(), NicEvent.BITS)));
        ev.bits.code.assign(mux(fetchErr, f.status.pad(8), errCode));
        ev.bits.tid.assign(mux(fetchErr, lit(0, 16), LayoutBits.get(d, D.TRANSACTION_ID)));
        ev.bits.index.assign(f.index);
        ev.bits.irq.assign(mux(fetchErr.not().and(LayoutBits.get(d, D.LINT).eq(1)), lit(NicHost.IRQ_COMPLETION, 2), lit(EventReq.IRQ_NONE, 2)));

        toSend.valid.assign(in.valid.and(good));
        toSend.bits.assign(f);
        in.ready.assign(mux(good, toSend.ready, mux(wantsEvent, ev.ready, TRUE())));

        consume.valid.assign(in.fire().and(fenceWait.not()));
        consume.bits.assign(f.vp);
        done.valid.assign(in.fire());
        done.bits.assign(f.vp);
        descError.assign(in.fire().and(fetchErr.not()).and(fenceWait.not()).and(refused));
        fetchError.assign(in.fire().and(fetchErr));

        // a parked VP whose fence outlived the timeout: released with an event, lowest VP first
        List<Bool> expired = new ArrayList<>();
        List<UInt> ids = new ArrayList<>();
        for (int v = 0; v < vps; v++) {
            expired.add(park.get(v).and(parkAge.get(v).ge(fenceTimeout)).and(outstandingCount.get(v).ne(0)));
            ids.add(lit(v, 6));
        }
        UInt expVp = priorityMux(expired, ids);
        Decoupled<EventReq> tev = evArb.in.get(1);
        tev.valid.assign(expired.stream().reduce(Bool::or).orElseThrow());
        tev.bits.vp.assign(expVp);
        tev.bits.type.assign(lit(NicEvent.FENCE_TIMEOUT.code(), NicEvent.BITS));
        tev.bits.code.assign(lit(0, 8));
        tev.bits.tid.assign(lit(0, 16));
        tev.bits.index.assign(lit(0, NicHost.INDEX_BITS));
        tev.bits.irq.assign(lit(EventReq.IRQ_NONE, 2));
        fenceExpired.assign(tev.fire());
        events.connect(evArb.out);

        List<Bool> parkedBits = new ArrayList<>();
        for (int v = vps - 1; v >= 0; v--) {
            parkedBits.add(park.get(v));
        }
        for (int v = 0; v < vps; v++) {
            UInt o = outstandingCount.get(v);
            Bool inc = in.fire().and(good).and(f.vp.eq(v));
            Bool dec = answered.valid.and(answered.bits.eq(v)).and(o.ne(0));
            Bool release = tev.fire().and(expVp.eq(v));
            when(release, () -> o.assign(lit(0, OUTSTANDING_BITS)))
                    .elsewhen(inc.and(dec.not()).and(o.andR().not()), () -> o.assign(o.add(1)))
                    .elsewhen(dec.and(inc.not()), () -> o.assign(o.sub(1)));
            Bool pk = park.get(v);
            UInt a = parkAge.get(v);
            when(in.fire().and(fenceWait).and(f.vp.eq(v)), () -> {
                pk.assign(TRUE());
                a.assign(lit(0, 16));
            }).elsewhen(pk.and(o.eq(0).or(release)), () -> pk.assign(FALSE()))
                    .elsewhen(pk.and(tick).and(a.andR().not()), () -> a.assign(a.add(1)));
            outstanding.get(v).assign(o);
        }
        parked.assign(cat(parkedBits));
    }

    /** The first failing check as a DescError code, 0 when the descriptor is good. */
    private static UInt checks(UInt d, UInt vp, int vps) {
        DescriptorLayout.Descriptor D = DescriptorLayout.DESCRIPTOR;
        UInt type = LayoutBits.get(d, D.NMP_TYPE);
        Bool isReg = type.eq(NmpType.REG_READ_REQ.code()).or(type.eq(NmpType.REG_WRITE_REQ.code()));
        Bool isEep = type.eq(NmpType.EEP_READ_REQ.code()).or(type.eq(NmpType.EEP_WRITE_REQ.code()));
        UInt regCount = field(d, PayloadLayouts.REGISTER.COUNT);
        UInt eepCount = field(d, PayloadLayouts.EEPROM.COUNT);
        List<Bool> fail = List.of(
                LayoutBits.get(d, D.HEAD).eq(0),
                LayoutBits.get(d, D.ERR).eq(1),
                LayoutBits.get(d, D.TYPE).ne(Th2.TYPE_MP)
                        .or(LayoutBits.get(d, D.SM).ne(Th2.MANAGEMENT_SM ? 1 : 0))
                        .or(LayoutBits.get(d, D.INST).ne(Th2.MANAGEMENT_INST ? 1 : 0))
                        .or(LayoutBits.get(d, D.RT_TYPE).ne(Th2.RT_SOURCE)),
                isReg.or(isEep).not(),
                LayoutBits.get(d, D.DEST_TYPE).gt(1),
                LayoutBits.get(d, D.SRC_VP).ne(vp).or(LayoutBits.get(d, D.DEST_VP).ge(vps)),
                NmpDistributor.routeOk(LayoutBits.get(d, D.F_ROUTING_FIELD)).and(NmpDistributor.routeOk(LayoutBits.get(d, D.B_ROUTING_FIELD))).not(),
                mux(isReg, regCount.eq(0).or(regCount.gt(Th2.MAX_REGISTERS)), eepCount.eq(0).or(eepCount.gt(Th2.MAX_EEPROM_BYTES))));
        List<DescError> codes = List.of(DescError.NO_HEAD, DescError.ERR_SET, DescError.NOT_MANAGEMENT, DescError.BAD_NMP_TYPE,
                DescError.BAD_DEST_TYPE, DescError.BAD_VP, DescError.BAD_ROUTE, DescError.BAD_COUNT);
        List<Bool> sels = new ArrayList<>(fail);
        sels.add(TRUE());
        List<UInt> vals = new ArrayList<>();
        for (DescError e : codes) {
            vals.add(lit(e.code(), DescError.BITS));
        }
        vals.add(lit(0, DescError.BITS));
        return priorityMux(sels, vals);
    }

    /** A payload field of the descriptor's NMPData. */
    private static UInt field(UInt d, org.flitkit.formats.core.Field payloadField) {
        int lsb = DescriptorLayout.DESCRIPTOR.NMP_DATA.lsb() + payloadField.lsb();
        return d.bits(lsb + payloadField.width() - 1, lsb);
    }
}
