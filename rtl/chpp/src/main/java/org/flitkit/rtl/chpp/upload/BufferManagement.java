package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.TaggedRead;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.TagAllocator;
import org.flitkit.rtl.chpp.TagRelease;
import org.flitkit.rtl.chpp.send.DescriptorRead;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.log2Up;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.rtl.pcie.Pcie;

/**
 * NAP receive-buffer management (paper section 4.2, figure 13: a cached set of NAP buffer addresses, read from
 * host memory when it runs low): holds up to {@code prefetch} free 2 KB-aligned buffer addresses and refills them
 * with PCIe memory reads of the host-side list ({@link BufferListRegs}), one read at a time on a tag from the
 * central {@link TagAllocator} (ports as {@link DescriptorRead}'s). A failed refill (error completion, timeout,
 * short data) is counted and retried after {@code retryDelay} cycles; entries are consumed only as they arrive,
 * so nothing is lost or read twice. docs/chpp-upload.md, "BufferManagement".
 */
public final class BufferManagement extends Module {
    public final ChppParams params;
    public final BufferParams bufferParams;

    /** Host BAR writes (always ready): list base, size and producer index at {@code mmioOffset} + {@link BufferListRegs}; others ignored. */
    public final Decoupled<MmioWrite> mmio;
    /** The next free buffer address (2 KB aligned), toward {@link NapUpload#buffer}. */
    public final Decoupled<UInt> out;
    /**
     * High while a refill read is outstanding or can be issued now (list not empty, no retry wait): a consumer
     * that finds {@link #out} empty may wait for it; when low, no address will come soon.
     */
    public final Bool refillPending;
    /** The allocator's offered tag ({@link TagAllocator#alloc}): taken in the cycle the list read leaves. */
    public final Decoupled<UInt> tag;
    /** Ends of reads for the allocator: every last or error completion beat given to this block. */
    public final Valid<TagRelease> tagRelease;
    /** The allocator's timeouts: the list read on that tag fails. */
    public final Valid<UInt> tagTimedOut;
    /** PCIe memory reads of the list (at most maxReadRequest bytes, never across a maxReadRequest boundary). */
    public final Decoupled<DmaRequest> dmaRq;
    /** Completions of this block's reads only; always ready. */
    public final Decoupled<DmaCompletion> dmaCpl;

    /** Addresses held on chip. */
    public final UInt prefetched;
    /** List entries posted by software and not yet read (producer - consumer). */
    public final UInt available;
    /** Producer and consumer indexes (free-running 32-bit). */
    public final UInt producer;
    public final UInt consumer;
    /** Base and a valid size have been written. */
    public final Bool enabled;
    /** Saturating counters: list reads issued; reads ended by an error completion or short data; reads timed out. */
    public final UInt refills;
    public final UInt refillErrors;
    public final UInt refillTimeouts;
    /** List entries refused because their address was not 2 KB aligned (skipped). */
    public final UInt badEntries;
    /** Producer writes refused: more than {@code size} entries would be outstanding. */
    public final UInt badProducer;
    /** Size writes refused: not a power of two 1..65536. */
    public final UInt badSize;
    /** Completion beats of no active read (late after a timeout, or for a read discarded by a base/size write). */
    public final UInt strayCompletions;

    /** The one list read in flight: its tag, the entries still to come; stale once a base or size write discarded it. */
    static final class ListRead extends Bundle {
        public final Bool active = Bool();
        public final Bool stale = Bool();
        public final UInt tag;
        public final UInt left;

        ListRead(int tagBits, int leftBits) {
            tag = UInt(tagBits);
            left = UInt(leftBits);
        }
    }

    public BufferManagement(ChppParams p, BufferParams bp) {
        params = p;
        bufferParams = bp;
        int tb = p.tagBits();
        int d = bp.prefetch();
        int pb = log2Up(d);
        int cb = pb + 1;
        int ib = BufferListRegs.INDEX_BITS;
        int ab = 64 - BufferListRegs.BUFFER_ALIGN_BITS;
        mmio = input(Decoupled.of(MmioWrite::new));
        out = output(Decoupled.of(UInt(64)));
        refillPending = output(Bool());
        tag = input(Decoupled.of(UInt(tb)));
        tagRelease = output(Valid.of(TagRelease::new));
        tagTimedOut = input(Valid.of(UInt(tb)));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        prefetched = output(UInt(cb));
        available = output(UInt(ib));
        producer = output(UInt(ib));
        consumer = output(UInt(ib));
        enabled = output(Bool());
        refills = output(UInt(Counters.BITS));
        refillErrors = output(UInt(Counters.BITS));
        refillTimeouts = output(UInt(Counters.BITS));
        badEntries = output(UInt(Counters.BITS));
        badProducer = output(UInt(Counters.BITS));
        badSize = output(UInt(Counters.BITS));
        strayCompletions = output(UInt(Counters.BITS));

        // ---- registers written by software
        UInt listBase = regInit(UInt(64), 0).named("listBase");
        Bool baseSet = regInit(Bool(), 0).named("baseSet");
        UInt listSize = regInit(UInt(17), 0).named("listSize");
        UInt prod = regInit(UInt(ib), 0).named("prod");
        UInt cons = regInit(UInt(ib), 0).named("cons");
        Bool en = baseSet.and(listSize.ne(0));
        UInt avail = prod.sub(cons);

        mmio.ready.assign(TRUE());
        int off = bp.mmioOffset();
        Bool wrBase = mmio.valid.and(mmio.bits.addr.eq(off + BufferListRegs.REG_BASE));
        Bool wrSize = mmio.valid.and(mmio.bits.addr.eq(off + BufferListRegs.REG_SIZE));
        Bool wrProd = mmio.valid.and(mmio.bits.addr.eq(off + BufferListRegs.REG_PRODUCER));
        UInt v = mmio.bits.data;
        // a power of two 1..65536: one bit set, nothing above bit 16
        UInt v17 = v.bits(16, 0);
        Bool sizeOk = v.bits(63, 17).eq(0).and(v17.ne(0)).and(v17.and(v17.sub(1)).eq(0));
        UInt newProd = v.bits(ib - 1, 0);
        // at most `listSize` entries outstanding: (newProd - cons) mod 2^32 <= listSize
        Bool prodOk = newProd.sub(cons).le(listSize.pad(ib));
        Bool restart = wrBase.or(wrSize.and(sizeOk));

        // ---- the prefetched set: a ring of registers, two pushes per cycle (one completion beat = two entries)
        List<UInt> slots = new ArrayList<>();
        for (int i = 0; i < d; i++) {
            slots.add(regInit(UInt(ab), 0).named("addr" + i));
        }
        UInt wp = regInit(UInt(cb), 0).named("wp");
        UInt rp = regInit(UInt(cb), 0).named("rp");
        UInt count = wp.sub(rp);

        // ---- the one list read in flight
        ListRead rd = regInit(new ListRead(tb, cb), 0).named("rd");
        Bool rdActive = rd.active;
        Bool rdStale = rd.stale;
        UInt rdTag = rd.tag;
        UInt rdLeft = rd.left;
        int backBits = log2Up(bp.retryDelay() + 1L);
        Counter backoff = Counter.upDownSaturating(1 << backBits).named("backoff");
        UInt inFlight = mux(rdActive.andNot(rdStale), rdLeft, lit(0, cb));

        // ---- refill: when low, read as many entries as fit, up to the list's end and the next read boundary
        UInt mask = listSize.sub(1).trunc(16);
        UInt slot = cons.bits(15, 0).and(mask);
        UInt slotAddr = listBase.add(cat(slot, lit(0, 3)).pad(64));
        UInt room = lit(d, cb + 1).sub(count.pad(cb + 1)).sub(inFlight.pad(cb + 1)); // <= d
        int mb = log2Up(bp.maxReadRequest());
        UInt toBoundary = lit(bp.maxReadRequest(), 14).sub(slotAddr.bits(mb - 1, 0).pad(14)).shr(3).pad(14); // entries
        UInt toEnd = listSize.sub(slot.pad(17)); // entries
        UInt n1 = min(room.pad(32), avail);
        UInt n2 = min(n1, toEnd.pad(32));
        UInt n = min(n2, toBoundary.pad(32)).trunc(cb + 1);
        Bool want = en.andNot(rdActive).and(backoff.value.eq(0)).and(count.le(bp.lowWater())).and(avail.ne(0)).and(room.ne(0))
                .andNot(restart); // a read issued as the list is re-set would read the old list
        Bool issue = TaggedRead.issue(dmaRq, tag, want, slotAddr, cat(n, lit(0, 3)).pad(Pcie.LEN_BITS));
        refillPending.assign(rdActive.or(en.and(backoff.value.eq(0)).and(avail.ne(0)).and(count.le(bp.lowWater()))));

        // ---- completions: entries in order, two per 16-byte beat at most (a read starts on an 8-byte entry)
        dmaCpl.ready.assign(TRUE());
        DmaCompletion c = dmaCpl.bits;
        Bool cfire = dmaCpl.fire();
        Bool cplOk = c.status.eq(Pcie.SC);
        Bool mine = cfire.and(rdActive).and(c.tag.eq(rdTag.pad(Pcie.TAG_BITS)));
        Bool useData = mine.and(cplOk).andNot(rdStale);
        Bool has1 = c.bytes.ge(8).and(rdLeft.ge(1));
        Bool has2 = c.bytes.ge(16).and(rdLeft.ge(2));
        Bool take0 = useData.and(has1);
        Bool take1 = useData.and(has2);
        UInt e0 = c.data.bits(63, 0);
        UInt e1 = c.data.bits(127, 64);
        int al = BufferListRegs.BUFFER_ALIGN_BITS;
        Bool ok0 = e0.bits(al - 1, 0).eq(0);
        Bool ok1 = e1.bits(al - 1, 0).eq(0);
        Bool push0 = take0.and(ok0);
        Bool push1 = take1.and(ok1);
        UInt w1 = mux(push0, wp.add(1), wp);
        for (int i = 0; i < d; i++) {
            final int ii = i;
            when(push0.and(wp.bits(pb - 1, 0).eq(ii)), () -> slots.get(ii).assign(e0.bits(63, al)));
            when(push1.and(w1.bits(pb - 1, 0).eq(ii)), () -> slots.get(ii).assign(e1.bits(63, al)));
        }
        UInt pushes = mux(push0, lit(1, cb), lit(0, cb)).add(mux(push1, lit(1, cb), lit(0, cb)));
        UInt takes = mux(take0, lit(1, cb), lit(0, cb)).add(mux(take1, lit(1, cb), lit(0, cb)));
        Bool ends = mine.and(c.last.or(cplOk.not()));
        // a read ends badly with an error completion, or with fewer entries than asked for
        Bool endsBad = ends.and(cplOk.not().or(rdLeft.ne(takes)).andNot(rdStale));
        Bool timedOut = tagTimedOut.valid.and(rdActive).and(tagTimedOut.bits.eq(rdTag));
        tagRelease.valid.assign(cfire.and(c.last.or(cplOk.not())));
        tagRelease.bits.tag.assign(c.tag);
        tagRelease.bits.error.assign(cplOk.not());

        // ---- handing out addresses
        out.valid.assign(count.ne(0));
        List<Bool> atRp = new ArrayList<>();
        for (int i = 0; i < d; i++) {
            atRp.add(rp.bits(pb - 1, 0).eq(i));
        }
        UInt head = Mux1H(atRp, slots);
        out.bits.assign(cat(head, lit(0, al)));
        Bool pop = out.fire();

        // ---- state updates
        when(restart, () -> {
            rp.assign(wp);
            prod.assign(0);
            cons.assign(0);
            rdStale.assign(rdActive.andNot(ends.or(timedOut)));
            backoff.clear();
        }).otherwise(() -> {
            wp.assign(wp.add(pushes));
            when(pop, () -> rp.assign(rp.add(1)));
            cons.assign(cons.add(takes.pad(ib)));
            when(wrProd.and(prodOk), () -> prod.assign(newProd));
            when(backoff.value.ne(0), backoff::dec)
                    .elsewhen(endsBad.or(timedOut.andNot(rdStale)), () -> backoff.load(bp.retryDelay()));
            when(ends.or(timedOut), () -> rdStale.assign(FALSE()));
        });
        when(wrBase, () -> {
            listBase.assign(cat(v.bits(63, 3), lit(0, 3)));
            baseSet.assign(TRUE());
        });
        when(wrSize.and(sizeOk), () -> listSize.assign(v17));
        when(issue, () -> {
            rdActive.assign(TRUE());
            rdTag.assign(tag.bits);
            rdLeft.assign(n.trunc(cb));
            rdStale.assign(FALSE());
        }).elsewhen(ends.or(timedOut), () -> rdActive.assign(FALSE()))
                .elsewhen(take0.or(take1), () -> rdLeft.assign(rdLeft.sub(takes)));

        prefetched.assign(count);
        available.assign(avail);
        producer.assign(prod);
        consumer.assign(cons);
        enabled.assign(en);
        refills.assign(Counters.count(issue, "refillCount"));
        refillErrors.assign(Counters.count(endsBad, "refillErrorCount"));
        refillTimeouts.assign(Counters.count(timedOut.andNot(rdStale), "refillTimeoutCount"));
        // the two entries of one beat can both be misaligned: count them one by one across two counter updates
        badEntries.assign(badEntryCounter(take0.andNot(ok0), take1.andNot(ok1)));
        badProducer.assign(Counters.count(wrProd.andNot(prodOk), "badProducerCount"));
        badSize.assign(Counters.count(wrSize.andNot(sizeOk), "badSizeCount"));
        strayCompletions.assign(Counters.count(cfire.andNot(mine.andNot(rdStale)), "strayCount"));
    }

    private static UInt min(UInt a, UInt b) {
        return mux(a.lt(b), a, b);
    }

    /** A saturating counter that adds 0, 1 or 2 per cycle. */
    private static UInt badEntryCounter(Bool a, Bool b) {
        UInt badEntryCount = regInit(UInt(Counters.BITS), 0).named("badEntryCount");
        UInt inc = mux(a, lit(1, 2), lit(0, 2)).add(mux(b, lit(1, 2), lit(0, 2)));
        UInt sum = badEntryCount.pad(Counters.BITS + 1).add(inc.pad(Counters.BITS + 1));
        badEntryCount.assign(mux(sum.bit(Counters.BITS), lit(0xFFFF_FFFFL, Counters.BITS), sum.trunc(Counters.BITS)));
        return badEntryCount;
    }
}
