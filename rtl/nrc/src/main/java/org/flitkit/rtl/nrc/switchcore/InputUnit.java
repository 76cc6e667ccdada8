package org.flitkit.rtl.nrc.switchcore;

import static org.flitkit.formats.th2.FlitLayouts.HEAD;
import static org.flitkit.formats.th2.FlitLayouts.ROUTE;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.*;
import static org.flitkit.hdl.lib.OneHot.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * One switch input port: checks and routes each arriving head (source route, or this port's routing table),
 * stores the packet in its {@link Damq}, picks a VC whose front packet can leave now (management VC3 first,
 * then round-robin), chooses the output adaptively by downstream credits, and streams the granted packet,
 * whole, to the crossbar, the relay station or the bin. Spec: 20-th2-management.md, "The system".
 */
public final class InputUnit extends Module {
    /** tag kinds, stored with each flit (meaningful on heads) */
    public static final int TAG_TABLE = 0;
    public static final int TAG_SOURCE = 1;
    public static final int TAG_TORS = 2;
    public static final int TAG_DROP = 3;

    public final SwitchParams p;
    public final int creditBits;

    public final Valid<UInt> in = input(Valid.of(UInt(Th2.FLIT_BITS)));
    public final Valid<UInt> creditOut = output(Valid.of(UInt(3)));
    public final Decoupled<UInt> toRs = output(Decoupled.of(UInt(Th2.FLIT_BITS)));

    /** outputs that can start a new packet this cycle (not locked, pipeline space) */
    public final UInt outFree;
    /** outputs with pipeline space for one more flit */
    public final UInt space;
    public final UInt linkUp;
    /** fits[v * (maxPacketFlits + 1) + len] bit o: output o has downstream credits for a len-flit packet on VC v */
    public final Vec<UInt> fits;
    /** credit[v * ports + o]: free downstream slots for VC v at output o */
    public final Vec<UInt> credit;

    /** the head at the front of the chosen VC asks for one output */
    public final Bool reqValid = output(Bool());
    public final UInt reqOH;
    public final Bool reqMgmt = output(Bool());
    public final UInt reqVc = output(UInt(3));
    public final UInt reqLen = output(UInt(4));
    /** the request won its output: the head leaves this cycle */
    public final Bool grant = input(Bool());

    /** a flit to the crossbar (row bus) for output xbarDest; xbarLast = the packet's last flit */
    public final Bool xbarValid = output(Bool());
    public final UInt xbarFlit = output(UInt(Th2.FLIT_BITS));
    public final UInt xbarDest = output(UInt(5));
    public final Bool xbarLast = output(Bool());
    /** xbarDest as a one-hot output set, zero when no flit goes to the crossbar */
    public final UInt xbarOH;

    public final Bool tableWe = input(Bool());
    public final UInt tableIndex;
    public final UInt tableMask;
    public final UInt tableReadIndex;
    public final UInt tableReadData;
    /** how the table is indexed (flat, or by region) and the outputs of an empty region entry */
    public final TableRegions regions;
    /** this port's own link is up: a packet cut short by its link going down is completed with empty flits */
    public final Bool portUp = input(Bool());

    /** one-cycle pulses for the counters */
    public final Bool malformed = output(Bool());
    public final Bool unroutable = output(Bool());
    public final Bool badVc = output(Bool());
    public final Bool overflow = output(Bool());
    public final Bool framingError = output(Bool());
    /** a source-routed packet left to the bin: its output port's link is down */
    public final Bool linkDownDrop = output(Bool());

    public final Damq damq;

    public InputUnit(SwitchParams p) {
        this.p = p;
        int n = p.ports();
        int vcs = p.vcs();
        int maxLen = p.maxPacketFlits();
        creditBits = log2Up(p.capacity() + 1);
        outFree = input(UInt(n));
        space = input(UInt(n));
        linkUp = input(UInt(n));
        fits = input(Vec(vcs * (maxLen + 1), () -> UInt(n)));
        credit = input(Vec(vcs * n, () -> UInt(creditBits)));
        reqOH = output(UInt(n));
        xbarOH = output(UInt(n));
        tableIndex = input(UInt(p.indexBits()));
        tableMask = input(UInt(n));
        tableReadIndex = input(UInt(p.indexBits()));
        tableReadData = output(UInt(n));
        regions = input(new TableRegions(p));
        int tagBits = n + 4 + 2;
        damq = instance(new Damq(p.capacity(), vcs, Th2.FLIT_BITS, tagBits));

        Mem<UInt> routeTable = mem(p.tableEntries(), UInt(n)).named("routeTable").init(new long[0]);
        when(tableWe, () -> routeTable.write(tableIndex, tableMask));
        tableReadData.assign(routeTable.read(tableReadIndex));

        arrival(routeTable, tagBits);
        departure();
    }

    /**
     * The allowed outputs of table-routed DestID {@code destId}: the entry of the flat table, or of the chip's region
     * or of DestID's region, the fallback for an empty region entry ({@link TableRegions#index}, {@link TableRegions#allowed}).
     */
    private UInt lookup(UInt destId, Mem<UInt> table) {
        int n = p.ports();
        UInt lb = regions.localBits;
        Bool flat = lb.eq(0);
        UInt high = destId.shr(lb).named("destRegion");
        Bool own = high.eq(regions.region);
        UInt low = destId.xor(high.shlTrunc(lb));
        UInt regionIndex = lit(1, 17).shlTrunc(lb).add(high.pad(17)).trunc(17);
        UInt index = mux(flat, destId.trunc(p.indexBits()).pad(17), mux(own, low.pad(17), regionIndex)).named("tableIndex");
        Bool inTable = flat.or(index.lt(p.tableEntries()));
        UInt raw = mux(inTable, table.read(index.trunc(p.indexBits())), lit(0, n));
        Bool fallsBack = flat.not().and(own.not()).and(raw.eq(0));
        return mux(fallsBack, regions.fallback, raw).named("mask");
    }

    /** The arrival side's framing state: where the incoming flit belongs (a register of bundle type). */
    private static final class Framing extends Bundle {
        /** inside a well-formed packet, framed by Len */
        final Bool cont = Bool();
        /** its flits still to come */
        final UInt left = UInt(4);
        /** the packet's VC */
        final UInt vc = UInt(3);
        /** storing a malformed packet's flits, to be binned */
        final Bool dropping = Bool();
        /** a packet on a VC we do not have */
        final Bool discarding = Bool();
    }

    /** The departure side's state: the packet being streamed out, and the VC served last (round-robin). */
    private static final class Current extends Bundle {
        final Bool streaming = Bool();
        final UInt vc = UInt(3);
        final UInt kind = UInt(2);
        final UInt out = UInt(5);
        final UInt left = UInt(4);
        final UInt rrLast = UInt(3);
    }

    // ------------------------------------------------------------------ arrival: check, route, store

    /** A head's fields as the arrival side needs them, and its tag: kind, length to store, output set. */
    private record Head(UInt vc, UInt len, Bool vcOk, Bool malformed, Bool noRoute, UInt tag) {
    }

    /**
     * Checks and routes the head {@code f}: Len, RT_Type and the source route's hops (malformed), the routing
     * table entry of DestID (unroutable), and the tag stored with it (docs/th2-nrc-switch.md).
     */
    private Head checkHead(UInt f, Mem<UInt> table) {
        int n = p.ports();
        // the head's fields
        UInt vc = LayoutBits.get(f, HEAD.VC);
        UInt len = LayoutBits.get(f, HEAD.LEN);
        UInt rt = LayoutBits.get(f, HEAD.RT_TYPE);
        UInt hopPtr = LayoutBits.get(f, HEAD.HOP_PTR);
        UInt route = LayoutBits.get(f, HEAD.ROUTE);
        UInt hopNum = LayoutBits.get(route, ROUTE.HOP_NUM);
        List<UInt> hops = new ArrayList<>();
        for (int i = 0; i < Th2.MAX_HOPS; i++) {
            hops.add(LayoutBits.get(route, ROUTE.hop(i)));
        }
        UInt hop = vecOf(hops).at(hopPtr).named("hop");
        UInt destId = LayoutBits.get(f, HEAD.DEST_ID);
        UInt mask = lookup(destId, table);

        Bool vcOk = vc.lt(p.vcs());
        Bool lenBad = len.eq(0).or(len.gt(p.maxPacketFlits()));
        Bool source = rt.eq(Th2.RT_SOURCE);
        Bool tableRt = rt.eq(Th2.RT_TABLE);
        Bool arrived = source.and(hopPtr.eq(hopNum));
        Bool mgmtHere = arrived.and(vc.eq(Th2.MANAGEMENT_VC));
        Bool srcBad = source.and(hopNum.gt(Th2.MAX_HOPS).or(hopPtr.gt(hopNum)).or(arrived.and(mgmtHere.not()))
                .or(arrived.not().and(hop.ge(n))));
        Bool malformedHead = lenBad.or(rt.gt(1)).or(srcBad).named("malformedHead");
        Bool noRoute = malformedHead.not().and(tableRt).and(mask.eq(0)).named("noRoute");
        UInt kind = mux(malformedHead.or(noRoute), lit(TAG_DROP, 2),
                mux(tableRt, lit(TAG_TABLE, 2), mux(mgmtHere, lit(TAG_TORS, 2), lit(TAG_SOURCE, 2))));
        UInt headMask = mux(tableRt, mask, mux(mgmtHere, lit(0, n), UIntToOH(hop, n)));
        UInt tagLen = mux(malformedHead.or(noRoute), lit(1, 4), len.trunc(4));
        UInt headTag = cat(kind, tagLen, headMask.pad(n)).named("headTag");
        return new Head(vc, len, vcOk, malformedHead, noRoute, headTag);
    }

    private void arrival(Mem<UInt> table, int tagBits) {
        int n = p.ports();
        UInt f = in.bits;
        Bool valid = in.valid;
        Bool isHead = f.bit(197);
        Bool isTail = f.bit(196);

        Framing arrival = regInit(new Framing(), 0).named("arrival");
        Bool cont = arrival.cont;
        UInt left = arrival.left;
        UInt vcReg = arrival.vc;
        Bool dropping = arrival.dropping;
        Bool discarding = arrival.discarding;

        Head head = checkHead(f, table);
        UInt vc = head.vc();
        UInt len = head.len();
        Bool vcOk = head.vcOk();
        Bool malformedHead = head.malformed();
        Bool noRoute = head.noRoute();
        UInt headTag = head.tag();
        UInt dropTag = cat(lit(TAG_DROP, 2), lit(1, 4), lit(0, n));

        // the head as stored: Kind made canonical (head, plus tail for a one-flit packet)
        Bool single = len.eq(1);
        UInt headFlit = cat(TRUE(), single, f.bits(195, 0));
        // continuation flits as stored: body, or tail for the Len-th
        Bool lastCont = left.eq(1);
        UInt contFlit = cat(FALSE(), lastCont, f.bits(195, 0));

        Bool store = wireDefault(Bool(), FALSE());
        UInt storeVc = wireDefault(UInt(3), vcReg);
        UInt storeFlit = wireDefault(UInt(Th2.FLIT_BITS), f);
        UInt storeTag = wireDefault(UInt(tagBits), dropTag);
        Bool framing = wireDefault(Bool(), FALSE());
        Bool pMalformed = wireDefault(Bool(), FALSE());
        Bool pUnroutable = wireDefault(Bool(), FALSE());
        Bool pBadVc = wireDefault(Bool(), FALSE());

        when(valid, () -> {
            when(cont, () -> {
                store.assign(TRUE());
                storeFlit.assign(contFlit);
                framing.assign(isHead.or(isTail.ne(lastCont)));
                left.assign(left.sub(1));
                cont.assign(lastCont.not());
            }).elsewhen(isHead, () -> {
                dropping.assign(FALSE());
                discarding.assign(FALSE());
                when(vcOk.not(), () -> {
                    pBadVc.assign(TRUE());
                    discarding.assign(isTail.not());
                }).otherwise(() -> {
                    store.assign(TRUE());
                    storeVc.assign(vc);
                    vcReg.assign(vc);
                    storeTag.assign(headTag);
                    pMalformed.assign(malformedHead);
                    pUnroutable.assign(noRoute);
                    when(malformedHead.or(noRoute), () -> {
                        dropping.assign(isTail.not());
                    }).otherwise(() -> {
                        storeFlit.assign(headFlit);
                        framing.assign(isTail.ne(single));
                        cont.assign(single.not());
                        left.assign(len.trunc(4).sub(1));
                    });
                });
            }).elsewhen(dropping, () -> {
                store.assign(TRUE());
                dropping.assign(isTail.not());
            }).elsewhen(discarding, () -> {
                discarding.assign(isTail.not());
            }).otherwise(() -> {
                // a body or tail flit with no head before it: nothing to attach it to
                framing.assign(TRUE());
            });
        }).elsewhen(cont.and(portUp.not()), () -> {
            // the link went down inside a packet: its missing flits will never come, and the packet may already be
            // leaving (cut-through) and holding an output downstream; made up as empty flits, it ends, its CRC fails
            // where it is checked, and nothing waits for it
            store.assign(TRUE());
            storeFlit.assign(cat(FALSE(), lastCont, lit(0, 196)));
            left.assign(left.sub(1));
            cont.assign(lastCont.not());
        });
        damq.enqValid.assign(store);
        damq.enqVc.assign(storeVc);
        damq.enqData.assign(storeFlit);
        damq.enqTag.assign(storeTag);
        malformed.assign(pMalformed);
        unroutable.assign(pUnroutable);
        badVc.assign(pBadVc);
        framingError.assign(framing);
        overflow.assign(damq.overflow);
    }

    // ------------------------------------------------------------------ departure: choose, request, stream

    /** The VC whose front packet leaves next, its kind and length, and the output chosen for it. */
    private record Choice(Bool any, UInt vc, UInt kind, UInt len, UInt outIdx, Bool down) {
    }

    /**
     * Picks the VC to serve: eligible when its front packet can leave now, management VC first, then round-robin
     * after {@code rrLast}; the output is the candidate with the most free downstream slots on that VC.
     */
    private Choice choose(UInt rrLast) {
        int n = p.ports();
        int vcs = p.vcs();
        int maxLen = p.maxPacketFlits();
        List<Bool> elig = new ArrayList<>();
        List<UInt> kinds = new ArrayList<>();
        List<UInt> lens = new ArrayList<>();
        List<UInt> cands = new ArrayList<>();
        List<Bool> downs = new ArrayList<>();
        UInt allOnes = lit((1L << n) - 1, n);
        for (int v = 0; v < vcs; v++) {
            UInt tag = damq.headTag.get(v);
            UInt storedKind = tag.bits(n + 5, n + 4);
            UInt len = tag.bits(n + 3, n);
            UInt mask = tag.bits(n - 1, 0);
            // a source route names one output: if its link is down the packet goes to the bin instead of waiting
            // for a link that may never come back, and blocking its VC (the management VC) behind it
            Bool down = storedKind.eq(TAG_SOURCE).and(mask.and(linkUp).orR().not()).named("down" + v);
            UInt kind = mux(down, lit(TAG_DROP, 2), storedKind);
            List<UInt> fitRow = new ArrayList<>();
            for (int l = 0; l <= maxLen; l++) {
                fitRow.add(fits.get(v * (maxLen + 1) + l));
            }
            UInt fit = vecOf(fitRow).at(len);
            UInt cand = mask.and(outFree).and(fit).and(mux(kind.eq(TAG_TABLE), linkUp, allOnes)).named("cand" + v);
            Bool e = damq.count.get(v).ne(0)
                    .and(kind.eq(TAG_DROP).or(kind.eq(TAG_TORS)).or(cand.orR())).named("elig" + v);
            elig.add(e);
            kinds.add(kind);
            lens.add(len);
            cands.add(cand);
            downs.add(down);
        }
        // management VC first, then round-robin from the VC after the last one served
        List<Bool> sel;
        if (p.hasManagementVc()) {
            Bool m = elig.get(Th2.MANAGEMENT_VC);
            List<Bool> rr = roundRobin(elig, rrLast);
            sel = new ArrayList<>();
            for (int v = 0; v < vcs; v++) {
                sel.add(v == Th2.MANAGEMENT_VC ? m : rr.get(v).and(m.not()));
            }
        } else {
            sel = roundRobin(elig, rrLast);
        }
        Bool anyElig = fromBools(elig).orR().named("anyElig");
        UInt chosenVc = vcs == 1 ? lit(0, 3) : OHToUInt(sel).pad(3).named("chosenVc");
        UInt chosenKind = Mux1H(sel, kinds).named("chosenKind");
        UInt chosenLen = Mux1H(sel, lens).named("chosenLen");
        UInt chosenCand = Mux1H(sel, cands).named("chosenCand");

        // adaptive choice: the candidate output with the most free downstream slots on this VC; ties to the lower port
        List<UInt> creds = new ArrayList<>();
        for (int o = 0; o < n; o++) {
            List<UInt> perVc = new ArrayList<>();
            for (int v = 0; v < vcs; v++) {
                perVc.add(credit.get(v * n + o));
            }
            creds.add(vcs == 1 ? perVc.get(0) : Mux1H(sel, perVc));
        }
        UInt outIdx = bestOutput(chosenCand, creds).named("outIdx");
        Bool chosenDown = Mux1H(sel, downs).named("chosenDown");
        return new Choice(anyElig, chosenVc, chosenKind, chosenLen, outIdx, chosenDown);
    }

    private void departure() {
        int n = p.ports();
        int vcs = p.vcs();
        Current cur = regInit(new Current(), c -> c.rrLast.init(vcs - 1)).named("cur");
        Bool streaming = cur.streaming;
        UInt curVc = cur.vc;
        UInt curKind = cur.kind;
        UInt curOut = cur.out;
        UInt curLeft = cur.left;
        UInt rrLast = cur.rrLast;

        Choice choice = choose(rrLast);
        Bool anyElig = choice.any();
        UInt chosenVc = choice.vc();
        UInt chosenKind = choice.kind();
        UInt chosenLen = choice.len();
        UInt outIdx = choice.outIdx();

        Bool toOut = chosenKind.eq(TAG_TABLE).or(chosenKind.eq(TAG_SOURCE));
        Bool curToOut = curKind.eq(TAG_TABLE).or(curKind.eq(TAG_SOURCE));
        reqValid.assign(streaming.not().and(anyElig).and(toOut));
        reqOH.assign(UIntToOH(outIdx, n));
        reqMgmt.assign(chosenVc.eq(Th2.MANAGEMENT_VC).and(chosenKind.eq(TAG_SOURCE)));
        reqVc.assign(chosenVc);
        reqLen.assign(chosenLen);

        UInt curCount = vcs == 1 ? damq.count.get(0) : damq.count.at(curVc.trunc(log2Up(vcs)));
        Bool avail = curCount.ne(0);
        Bool headGo = streaming.not().and(anyElig).and(chosenKind.eq(TAG_DROP)
                .or(chosenKind.eq(TAG_TORS).and(toRs.ready)).or(toOut.and(grant))).named("headGo");
        Bool streamGo = streaming.and(avail).and(curKind.eq(TAG_DROP)
                .or(curKind.eq(TAG_TORS).and(toRs.ready)).or(curToOut.and(space.bit(curOut)))).named("streamGo");
        Bool send = headGo.or(streamGo);
        UInt vcSel = mux(streaming, curVc, chosenVc);
        damq.deq.assign(send);
        damq.deqVc.assign(vcSel);

        UInt flit = damq.deqData;
        // a source-routed head leaves with HopPtr + 1 (the next chip uses the next hop)
        UInt bumped = LayoutBits.with(flit, HEAD.HOP_PTR, LayoutBits.get(flit, HEAD.HOP_PTR).add(1));
        UInt outFlit = mux(streaming.not().and(chosenKind.eq(TAG_SOURCE)), bumped, flit);

        toRs.valid.assign(streaming.and(curKind.eq(TAG_TORS)).and(avail)
                .or(streaming.not().and(anyElig).and(chosenKind.eq(TAG_TORS))));
        toRs.bits.assign(flit);
        xbarValid.assign(headGo.and(toOut).or(streamGo.and(curToOut)));
        xbarFlit.assign(outFlit);
        xbarDest.assign(mux(streaming, curOut, outIdx.pad(5)));
        xbarLast.assign(mux(streaming, curLeft.eq(1), chosenLen.eq(1)));
        xbarOH.assign(mux(xbarValid, UIntToOH(xbarDest, n), lit(0, n)));
        creditOut.valid.assign(send);
        creditOut.bits.assign(vcSel);
        linkDownDrop.assign(headGo.and(choice.down()));

        when(headGo, () -> {
            rrLast.assign(chosenVc);
            curVc.assign(chosenVc);
            curKind.assign(chosenKind);
            curOut.assign(outIdx.pad(5));
            curLeft.assign(chosenLen.sub(1));
            streaming.assign(chosenLen.gt(1));
        });
        when(streamGo, () -> {
            curLeft.assign(curLeft.sub(1));
            streaming.assign(curLeft.ne(1));
        });
    }

    /** One-hot: the first requester after {@code last}, wrapping around. */
    static List<Bool> roundRobin(List<Bool> req, UInt last) {
        int n = req.size();
        List<Bool> after = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            after.add(req.get(i).and(last.lt(i)));
        }
        Bool wrap = fromBools(after).orR().not();
        List<Bool> next = PriorityEncoderOH(after);
        List<Bool> first = PriorityEncoderOH(req);
        List<Bool> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(mux(wrap, first.get(i), next.get(i)));
        }
        return out;
    }

    /** Index of the candidate (bit set in {@code cand}) with the largest credit; the lower index wins a tie. */
    private UInt bestOutput(UInt cand, List<UInt> creds) {
        int n = creds.size();
        int w = log2Up(n);
        List<Bool> valid = new ArrayList<>();
        List<UInt> value = new ArrayList<>();
        List<UInt> index = new ArrayList<>();
        for (int o = 0; o < n; o++) {
            valid.add(cand.bit(o));
            value.add(creds.get(o));
            index.add(lit(o, w));
        }
        while (valid.size() > 1) {
            List<Bool> nv = new ArrayList<>();
            List<UInt> nval = new ArrayList<>();
            List<UInt> nidx = new ArrayList<>();
            for (int i = 0; i + 1 < valid.size(); i += 2) {
                Bool a = valid.get(i);
                Bool b = valid.get(i + 1);
                Bool takeB = b.and(a.not().or(value.get(i + 1).gt(value.get(i))));
                nv.add(a.or(b));
                nval.add(mux(takeB, value.get(i + 1), value.get(i)));
                nidx.add(mux(takeB, index.get(i + 1), index.get(i)));
            }
            if (valid.size() % 2 == 1) {
                nv.add(valid.get(valid.size() - 1));
                nval.add(value.get(value.size() - 1));
                nidx.add(index.get(index.size() - 1));
            }
            valid = nv;
            value = nval;
            index = nidx;
        }
        return index.get(0);
    }
}
