package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.TaggedRead;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.TagAllocator;
import org.flitkit.rtl.chpp.TagRelease;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.fromBools;
import static org.flitkit.hdl.lib.Bitwise.log2Up;
import static org.flitkit.hdl.lib.OneHot.PriorityEncoder;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The send engine's descriptor-read stage (paper, section 4.1, the DMA send engine: descriptor read; spec
 * 30-chpp-dma.md, "Engine structure" and "Tags"): takes an arbitrated doorbell into one of {@code slots} 4096-byte
 * buffers and reads the descriptor with PCIe memory reads of at most Max_Read_Request_Size, each on a tag from the
 * central {@link TagAllocator}; reassembles their completions (split at the RCB and MPS, interleaved between tags)
 * by tag, reports each read's end to the allocator, and hands each whole descriptor on, in doorbell order, as
 * 16-byte {@link DescriptorBeat}s, or one beat with an error status (length refused without a read, UR/CA,
 * completion timeout). docs/chpp-send-engine.md.
 */
public final class DescriptorRead extends Module {
    /** Beats of one slot's buffer: 4096 bytes in 16-byte beats. */
    public static final int SLOT_BEATS = Doorbell.MAX_LENGTH / PacketBeat.DATA_BYTES;

    public final ChppParams params;
    public final SendEngineParams sendParams;
    /** Arbitrated doorbells (from {@link DoorbellFront#out}). */
    public final Decoupled<FunctionDoorbell> doorbell;
    /** The allocator's offered tag ({@link TagAllocator#alloc}): taken in the cycle the read request leaves. */
    public final Decoupled<UInt> tag;
    /** Ends of reads for the allocator ({@link TagAllocator#release}): every last or error completion beat. */
    public final Valid<TagRelease> tagRelease;
    /** The allocator's timeouts ({@link TagAllocator#timedOut}): the slot reading on that tag ends with COMPLETION_TIMEOUT. */
    public final Valid<UInt> tagTimedOut;
    /** PCIe memory reads of descriptors, 16-byte beats. */
    public final Decoupled<DmaRequest> dmaRq;
    /** Their completions, 16-byte beats; always ready. */
    public final Decoupled<DmaCompletion> dmaCpl;
    /** Fetched descriptors, one beat per 16 bytes, or one error beat. */
    public final Decoupled<DescriptorBeat> out;
    /** Slots holding a doorbell (reading, or waiting to be handed on). */
    public final UInt busySlots;
    /** Doorbells refused without a read (length not 16..4096 whole words, or address not 8-byte aligned), saturating. */
    public final UInt refusedDoorbells;
    /** Completion beats of no slot's read (late after a timeout, or stray), dropped; saturating. */
    public final UInt strayCompletions;

    /** One slot: the doorbell it serves, how much of it has been asked for, the reads still out, and its end. */
    static final class Slot extends Bundle {
        public final Bool busy = Bool();
        public final UInt addr = UInt(Doorbell.ADDR_BITS);
        public final UInt function = UInt(Doorbell.FUNCTION_BITS);
        public final UInt qp = UInt(Doorbell.QP_BITS);
        public final UInt length = UInt(Doorbell.LENGTH_BITS);
        public final UInt status = UInt(8);
        public final UInt issued = UInt(Doorbell.LENGTH_BITS);
        public final UInt outstanding;

        Slot(int outstandingBits) {
            outstanding = UInt(outstandingBits);
        }
    }

    /** The read a tag carries: its slot, where its bytes go (64-bit word in the slot), words expected and received. */
    static final class TagRead extends Bundle {
        public final Bool valid = Bool();
        public final UInt slot;
        public final UInt base = UInt(9);
        public final UInt words = UInt(10);
        public final UInt expect = UInt(10);

        TagRead(int slotBits) {
            slot = UInt(slotBits);
        }
    }

    public DescriptorRead(ChppParams p, SendEngineParams sp) {
        params = p;
        sendParams = sp;
        int n = sp.slots();
        int tb = p.tagBits();
        int sb = log2Up(Math.max(2, n));
        doorbell = input(Decoupled.of(FunctionDoorbell::new));
        tag = input(Decoupled.of(UInt(tb)));
        tagRelease = output(Valid.of(TagRelease::new));
        tagTimedOut = input(Valid.of(UInt(tb)));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        out = output(Decoupled.of(DescriptorBeat::new));
        busySlots = output(UInt(n));
        refusedDoorbells = output(UInt(Counters.BITS));
        strayCompletions = output(UInt(Counters.BITS));

        int nt = p.tags();
        int mrrs = sp.maxReadRequest();
        List<Slot> slots = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            slots.add(regInit(new Slot(log2Up(Doorbell.MAX_LENGTH / mrrs + 1L)), 0).named("slot" + s));
        }
        List<Bool> busy = each(slots, x -> x.busy);
        List<UInt> sAddr = each(slots, x -> x.addr);
        List<UInt> sFn = each(slots, x -> x.function);
        List<UInt> sQp = each(slots, x -> x.qp);
        List<UInt> sLen = each(slots, x -> x.length);
        List<UInt> sStatus = each(slots, x -> x.status);
        List<UInt> sIssued = each(slots, x -> x.issued);
        List<UInt> sOut = each(slots, x -> x.outstanding);
        List<TagRead> tags = new ArrayList<>();
        for (int t = 0; t < nt; t++) {
            tags.add(regInit(new TagRead(sb), 0).named("tag" + t));
        }
        List<Bool> tValid = each(tags, x -> x.valid);
        List<UInt> tSlot = each(tags, x -> x.slot);
        List<UInt> tBase = each(tags, x -> x.base);
        List<UInt> tWords = each(tags, x -> x.words);
        List<UInt> tExpect = each(tags, x -> x.expect);
        // two banks of 64-bit words (even and odd word of each beat): a completion beat of 8 or 16 bytes at any
        // word offset writes at most one word into each bank
        Mem<UInt> bank0 = mem((1 << sb) * SLOT_BEATS, UInt(64)).named("bank0");
        Mem<UInt> bank1 = mem((1 << sb) * SLOT_BEATS, UInt(64)).named("bank1");
        UInt okCode = lit(CompletionStatus.OK.code(), 8);

        // ---- doorbell in: into a free slot, one per cycle; a length the formats refuse is finished at once
        List<Bool> free = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            free.add(busy.get(s).not());
        }
        Bool anyFree = fromBools(free).orR();
        UInt freeSlot = PriorityEncoder(free).pad(sb);
        Doorbell db = doorbell.bits.doorbell;
        // the formats' rules for a fetch: 16..4096 bytes (a descriptor head is 16), whole 8-byte words, aligned
        Bool lenOk = db.length.ge(16).and(db.length.le(Doorbell.MAX_LENGTH)).and(db.length.bits(2, 0).eq(0))
                .and(db.addr.bits(2, 0).eq(0));
        doorbell.ready.assign(anyFree);
        Bool accept = doorbell.fire();
        refusedDoorbells.assign(Counters.count(accept.andNot(lenOk), "refused"));

        // ---- read requests: the lowest slot with bytes left to ask for, up to the next Max_Read_Request_Size
        // boundary (so no request crosses it, nor a 4 KB boundary), one request per cycle with the offered tag
        List<Bool> wants = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            wants.add(busy.get(s).and(sStatus.get(s).eq(okCode)).and(sIssued.get(s).lt(sLen.get(s))));
        }
        Bool anyWants = fromBools(wants).orR();
        UInt issueSlot = PriorityEncoder(wants).pad(sb);
        List<Bool> issueOH = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            issueOH.add(issueSlot.eq(s));
        }
        UInt iIssued = Mux1H(issueOH, sIssued);
        UInt iAddr = Mux1H(issueOH, sAddr).add(iIssued.pad(Doorbell.ADDR_BITS));
        int mb = log2Up(mrrs);
        UInt toBoundary = lit(mrrs, 14).sub(iAddr.bits(mb - 1, 0).pad(14));
        UInt left = Mux1H(issueOH, sLen).sub(iIssued).pad(14);
        UInt chunk = mux(left.lt(toBoundary), left, toBoundary).trunc(Doorbell.LENGTH_BITS);
        Bool issue = TaggedRead.issue(dmaRq, tag, anyWants, iAddr, chunk);

        // ---- completions: the tag names the read, the read names the slot and the place in it
        dmaCpl.ready.assign(TRUE());
        DmaCompletion c = dmaCpl.bits;
        Bool tagInRange = nt >= 256 ? TRUE() : c.tag.lt(nt);
        List<Bool> tagOH = new ArrayList<>();
        for (int t = 0; t < nt; t++) {
            tagOH.add(tagInRange.and(c.tag.eq(t)));
        }
        Bool hit = dmaCpl.fire().and(Mux1H(tagOH, tValid));
        UInt hitSlot = Mux1H(tagOH, tSlot);
        UInt tw = Mux1H(tagOH, tWords);
        UInt te = Mux1H(tagOH, tExpect);
        Bool cplOk = c.status.eq(Pcie.SC);
        Bool two = c.bytes.gt(8);
        UInt nw = tw.add(mux(two, lit(2, 10), lit(1, 10)));
        UInt words = Mux1H(tagOH, tBase).pad(10).add(tw);
        UInt lo = c.data.bits(63, 0);
        UInt hi = c.data.bits(127, 64);
        // bytes beyond what was asked for are dropped (and the read ends in error, below)
        Bool room0 = tw.lt(te);
        Bool room1 = two.and(tw.add(1).lt(te));
        Bool write = hit.and(cplOk);
        UInt w0 = words.bits(9, 1).trunc(8);
        UInt w1 = words.add(1).bits(9, 1).trunc(8);
        when(write.and(room0), () -> {
            when(words.bit(0).not(), () -> bank0.write(cat(hitSlot, w0), lo)).otherwise(() -> bank1.write(cat(hitSlot, w0), lo));
        });
        when(write.and(room1), () -> {
            when(words.bit(0).not(), () -> bank1.write(cat(hitSlot, w0), hi)).otherwise(() -> bank0.write(cat(hitSlot, w1), hi));
        });
        Bool ends = hit.and(c.last.or(cplOk.not()));
        // a read that ends with an error completion, or whose completions carried other than the bytes asked for
        Bool endsBad = ends.and(cplOk.not().or(nw.ne(te)));
        tagRelease.valid.assign(dmaCpl.fire().and(c.last.or(cplOk.not())));
        tagRelease.bits.tag.assign(c.tag);
        tagRelease.bits.error.assign(cplOk.not());
        strayCompletions.assign(Counters.count(dmaCpl.fire().andNot(hit), "stray"));

        // ---- timeouts: the allocator reclaimed the tag; its read ends with COMPLETION_TIMEOUT
        List<Bool> toOH = new ArrayList<>();
        for (int t = 0; t < nt; t++) {
            toOH.add(tagTimedOut.valid.and(tagTimedOut.bits.eq(t)));
        }
        Bool toHit = tagTimedOut.valid.and(Mux1H(toOH, tValid));
        UInt toSlot = Mux1H(toOH, tSlot);

        for (int t = 0; t < nt; t++) {
            final int ti = t;
            Bool ending = ends.and(tagOH.get(t)).or(toHit.and(toOH.get(t)));
            when(issue.and(tag.bits.eq(t)), () -> {
                tValid.get(ti).assign(TRUE());
                tSlot.get(ti).assign(issueSlot);
                tBase.get(ti).assign(iIssued.shr(3).trunc(9));
                tWords.get(ti).assign(0);
                tExpect.get(ti).assign(chunk.shr(3).pad(10));
            }).elsewhen(ending, () -> tValid.get(ti).assign(FALSE()))
                    .elsewhen(write.and(tagOH.get(ti)), () -> tWords.get(ti).assign(nw));
        }

        // ---- hand on in the order the doorbells were accepted (a QP's requests stay in order): the oldest slot,
        // once finished, all its beats, then the slot is free
        Queue<UInt> order = instance("order", new Queue<>(() -> UInt(sb), n));
        order.enq.valid.assign(accept);
        order.enq.bits.assign(freeSlot);
        Counter outBeat = new Counter(256).named("outBeat");
        List<Bool> ready = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            ready.add(busy.get(s).and(sOut.get(s).eq(0)).and(sStatus.get(s).ne(okCode).or(sIssued.get(s).eq(sLen.get(s)))));
        }
        UInt sel = order.deq.bits;
        UInt beat = outBeat.value;
        List<Bool> selOH = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            selOH.add(sel.eq(s));
        }
        UInt selLen = Mux1H(selOH, sLen);
        UInt selStatus = Mux1H(selOH, sStatus);
        Bool ok = selStatus.eq(CompletionStatus.OK.code());
        // beats of the descriptor: ceil(length / 16)
        UInt lastBeat = selLen.add(15).shr(4).sub(1).trunc(8);
        Bool isLast = ok.not().or(beat.eq(lastBeat));
        UInt addr = cat(sel, beat);
        UInt rlo = bank0.read(addr);
        UInt rhi = bank1.read(addr);
        // an odd word count leaves the last beat's upper word unwritten: give zeros, not stale bytes
        Bool halfBeat = isLast.and(selLen.bit(3));
        out.valid.assign(order.deq.valid.and(Mux1H(selOH, ready)));
        out.bits.function.assign(Mux1H(selOH, sFn));
        out.bits.qp.assign(Mux1H(selOH, sQp));
        out.bits.length.assign(selLen);
        out.bits.status.assign(selStatus);
        out.bits.data.assign(mux(ok, cat(mux(halfBeat, lit(0, 64), rhi), rlo), lit(0, PacketBeat.DATA_BITS)));
        out.bits.last.assign(isLast);
        out.bits.resp.assign(FALSE());
        Bool outFire = out.fire();
        order.deq.ready.assign(outFire.and(isLast));
        when(outFire, () -> when(isLast, outBeat::clear).otherwise(outBeat::inc));

        // ---- slot state: reads out go up by the one issued and down by the ones ended; the first error sticks
        for (int s = 0; s < n; s++) {
            final int si = s;
            Bool b = busy.get(s);
            Bool iss = issue.and(issueSlot.eq(s));
            Bool cplEnd = ends.and(hitSlot.eq(s));
            Bool toEnd = toHit.and(toSlot.eq(s));
            UInt o = sOut.get(s);
            UInt up = mux(iss, lit(1, o.width()), lit(0, o.width()));
            UInt down = mux(cplEnd, lit(1, o.width()), lit(0, o.width())).add(mux(toEnd, lit(1, o.width()), lit(0, o.width())));
            when(accept.and(freeSlot.eq(s)), () -> {
                b.assign(TRUE());
                sAddr.get(si).assign(db.addr);
                sFn.get(si).assign(doorbell.bits.function);
                sQp.get(si).assign(db.qp);
                sLen.get(si).assign(db.length);
                sStatus.get(si).assign(mux(lenOk, okCode, lit(CompletionStatus.BAD_DESCRIPTOR.code(), 8)));
                sIssued.get(si).assign(0);
                o.assign(0);
            }).elsewhen(outFire.and(isLast).and(sel.eq(s)), () -> b.assign(FALSE())).otherwise(() -> {
                o.assign(o.add(up).sub(down));
                when(iss, () -> sIssued.get(si).assign(sIssued.get(si).add(chunk)));
                UInt st = sStatus.get(si);
                when(st.eq(okCode), () -> {
                    when(cplEnd.and(endsBad), () -> st.assign(CompletionStatus.PCIE_ERROR.code()))
                            .elsewhen(toEnd, () -> st.assign(CompletionStatus.COMPLETION_TIMEOUT.code()));
                });
            });
        }
        busySlots.assign(fromBools(busy));
    }

    /** One field of every element, e.g. the {@code busy} flag of every slot, for the one-hot muxes. */
    private static <B, T> List<T> each(List<B> elements, Function<B, T> field) {
        return elements.stream().map(field).toList();
    }
}
