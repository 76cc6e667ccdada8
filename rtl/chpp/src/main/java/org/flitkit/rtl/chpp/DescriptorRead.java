package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.fromBools;
import static org.flitkit.hdl.lib.Bitwise.log2Up;
import static org.flitkit.hdl.lib.OneHot.PriorityEncoder;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.Status;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The send engine's descriptor-read stage (paper, section 4.1, the DMA send engine: descriptor read; spec
 * 30-chpp-dma.md, "Engine structure" and "Tags"): takes an arbitrated doorbell, takes a tag from the central
 * {@link TagAllocator} and issues one PCIe memory read of the descriptor; reassembles its completions (split at the
 * RCB and MPS, interleaved between tags) by tag into one of {@code slots} 4096-byte buffers, reports the read's end
 * to the allocator, and hands each whole descriptor on as 16-byte {@link DescriptorBeat}s, or one beat with an
 * error status (length refused without a read, UR/CA, completion timeout). docs/chpp-send-engine.md.
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

    public DescriptorRead(ChppParams p, SendEngineParams sp) {
        params = p;
        sendParams = sp;
        int n = sp.slots();
        int tb = p.tagBits();
        int sb = log2Up(Math.max(2, n));
        doorbell = input(Decoupled.of(FunctionDoorbell::new));
        tag = input(Decoupled.of(UInt(tb)));
        tagRelease = output(Valid.<TagRelease>of(TagRelease::new));
        tagTimedOut = input(Valid.of(UInt(tb)));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        out = output(Decoupled.of(DescriptorBeat::new));
        busySlots = output(UInt(n));
        refusedDoorbells = output(UInt(Counters.BITS));
        strayCompletions = output(UInt(Counters.BITS));

        // per slot: the doorbell it serves, its tag, the 64-bit words received so far, and its end
        List<Bool> busy = new ArrayList<>();
        List<Bool> done = new ArrayList<>();
        List<UInt> sTag = new ArrayList<>();
        List<UInt> sFn = new ArrayList<>();
        List<UInt> sQp = new ArrayList<>();
        List<UInt> sLen = new ArrayList<>();
        List<UInt> sStatus = new ArrayList<>();
        List<UInt> sWords = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            busy.add(regInit(Bool(), 0).named("busy" + s));
            done.add(regInit(Bool(), 0).named("done" + s));
            sTag.add(regInit(UInt(tb), 0).named("tag" + s));
            sFn.add(regInit(UInt(Doorbell.FUNCTION_BITS), 0).named("function" + s));
            sQp.add(regInit(UInt(Doorbell.QP_BITS), 0).named("qp" + s));
            sLen.add(regInit(UInt(Doorbell.LENGTH_BITS), 0).named("length" + s));
            sStatus.add(regInit(UInt(8), 0).named("status" + s));
            sWords.add(regInit(UInt(10), 0).named("words" + s));
        }
        // two banks of 64-bit words (even and odd word of each beat): a completion beat of 8 or 16 bytes at any
        // word offset writes at most one word into each bank
        Mem<UInt> bank0 = mem((1 << sb) * SLOT_BEATS, UInt(64)).named("bank0");
        Mem<UInt> bank1 = mem((1 << sb) * SLOT_BEATS, UInt(64)).named("bank1");

        // ---- doorbell in, read request out: one per cycle, in the same cycle as the tag
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
        dmaRq.valid.assign(doorbell.valid.and(anyFree).and(lenOk).and(tag.valid));
        dmaRq.bits.write.assign(FALSE());
        dmaRq.bits.tag.assign(tag.bits.pad(Pcie.TAG_BITS));
        dmaRq.bits.addr.assign(db.addr);
        dmaRq.bits.len.assign(db.length);
        dmaRq.bits.data.assign(0);
        dmaRq.bits.last.assign(TRUE());
        tag.ready.assign(doorbell.valid.and(anyFree).and(lenOk).and(dmaRq.ready));
        doorbell.ready.assign(anyFree.and(lenOk.not().or(tag.valid.and(dmaRq.ready))));
        Bool accept = doorbell.fire();
        refusedDoorbells.assign(Counters.count(accept.andNot(lenOk), "refused"));

        // ---- completions: match the tag against the slots still reading
        dmaCpl.ready.assign(TRUE());
        DmaCompletion c = dmaCpl.bits;
        List<Bool> hit = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            hit.add(busy.get(s).andNot(done.get(s)).and(c.tag.eq(sTag.get(s).pad(Pcie.TAG_BITS))));
        }
        Bool anyHit = fromBools(hit).orR();
        UInt hitSlot = PriorityEncoder(hit).pad(sb);
        Bool cplOk = c.status.eq(Pcie.SC);
        UInt words = oneHotMux(hit, sWords);
        UInt expected = oneHotMux(hit, sLen).shr(3).pad(10);
        Bool two = c.bytes.gt(8);
        UInt lo = c.data.bits(63, 0);
        UInt hi = c.data.bits(127, 64);
        Bool room0 = words.lt(expected);
        Bool room1 = two.and(words.add(1).lt(expected));
        Bool write = dmaCpl.fire().and(anyHit).and(cplOk);
        UInt w0 = words.bits(9, 1).trunc(8);
        UInt w1 = words.add(1).bits(9, 1).trunc(8);
        when(write.and(room0), () -> {
            when(words.bit(0).not(), () -> bank0.write(cat(hitSlot, w0), lo)).otherwise(() -> bank1.write(cat(hitSlot, w0), lo));
        });
        when(write.and(room1), () -> {
            when(words.bit(0).not(), () -> bank1.write(cat(hitSlot, w0), hi)).otherwise(() -> bank0.write(cat(hitSlot, w1), hi));
        });
        tagRelease.valid.assign(dmaCpl.fire().and(c.last.or(cplOk.not())));
        tagRelease.bits.tag.assign(c.tag);
        tagRelease.bits.error.assign(cplOk.not());
        strayCompletions.assign(Counters.count(dmaCpl.fire().andNot(anyHit), "stray"));

        // ---- hand on: the lowest finished slot, all its beats, then the slot is free
        Bool outActive = regInit(Bool(), 0).named("outActive");
        UInt outSlot = regInit(UInt(sb), 0).named("outSlot");
        UInt outBeat = regInit(UInt(8), 0).named("outBeat");
        List<Bool> ready = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            ready.add(busy.get(s).and(done.get(s)));
        }
        Bool anyReady = fromBools(ready).orR();
        UInt sel = mux(outActive, outSlot, PriorityEncoder(ready).pad(sb));
        UInt beat = mux(outActive, outBeat, lit(0, 8));
        List<Bool> selOH = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            selOH.add(sel.eq(s));
        }
        UInt selLen = Mux1H(selOH, sLen);
        UInt selStatus = Mux1H(selOH, sStatus);
        Bool ok = selStatus.eq(Status.OK.code());
        // beats of the descriptor: ceil(length / 16)
        UInt lastBeat = selLen.add(15).shr(4).sub(1).trunc(8);
        Bool isLast = ok.not().or(beat.eq(lastBeat));
        UInt addr = cat(sel, beat);
        UInt rlo = bank0.read(addr);
        UInt rhi = bank1.read(addr);
        // an odd word count leaves the last beat's upper word unwritten: give zeros, not stale bytes
        Bool halfBeat = isLast.and(selLen.bit(3));
        out.valid.assign(outActive.or(anyReady));
        out.bits.function.assign(Mux1H(selOH, sFn));
        out.bits.qp.assign(Mux1H(selOH, sQp));
        out.bits.length.assign(selLen);
        out.bits.status.assign(selStatus);
        out.bits.data.assign(mux(ok, cat(mux(halfBeat, lit(0, 64), rhi), rlo), lit(0, PacketBeat.DATA_BITS)));
        out.bits.last.assign(isLast);
        Bool outFire = out.fire();
        when(outFire, () -> {
            when(isLast, () -> outActive.assign(FALSE())).otherwise(() -> {
                outActive.assign(TRUE());
                outSlot.assign(sel);
                outBeat.assign(beat.add(1));
            });
        });

        // ---- slot state
        UInt badStatus = lit(Status.BAD_DESCRIPTOR.code(), 8);
        for (int s = 0; s < n; s++) {
            final int si = s;
            Bool b = busy.get(s);
            Bool d = done.get(s);
            Bool h = hit.get(s).and(dmaCpl.fire());
            Bool timedOut = tagTimedOut.valid.and(b).andNot(d).and(tagTimedOut.bits.eq(sTag.get(s)));
            when(accept.and(freeSlot.eq(s)), () -> {
                b.assign(TRUE());
                d.assign(lenOk.not());
                sTag.get(si).assign(tag.bits);
                sFn.get(si).assign(doorbell.bits.function);
                sQp.get(si).assign(db.qp);
                sLen.get(si).assign(db.length);
                sStatus.get(si).assign(mux(lenOk, lit(Status.OK.code(), 8), badStatus));
                sWords.get(si).assign(0);
            }).elsewhen(outFire.and(isLast).and(sel.eq(s)), () -> {
                b.assign(FALSE());
                d.assign(FALSE());
            }).elsewhen(h, () -> {
                UInt nw = sWords.get(si).add(mux(two, lit(2, 10), lit(1, 10)));
                when(cplOk.not(), () -> {
                    d.assign(TRUE());
                    sStatus.get(si).assign(Status.PCIE_ERROR.code());
                }).elsewhen(c.last, () -> {
                    d.assign(TRUE());
                    // a read whose completions carried fewer or more bytes than asked is as bad as an error completion
                    sStatus.get(si).assign(mux(nw.eq(sLen.get(si).shr(3).pad(10)), lit(Status.OK.code(), 8),
                            lit(Status.PCIE_ERROR.code(), 8)));
                });
                sWords.get(si).assign(nw);
            }).elsewhen(timedOut, () -> {
                d.assign(TRUE());
                sStatus.get(si).assign(Status.COMPLETION_TIMEOUT.code());
            });
        }
        busySlots.assign(fromBools(busy));
    }
}
