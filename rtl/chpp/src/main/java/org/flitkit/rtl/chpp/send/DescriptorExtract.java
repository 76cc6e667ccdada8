package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Counters;

import org.flitkit.rtl.chpp.PacketBeat;
import static org.flitkit.hdl.Hdl.*;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.DescKind;
import org.flitkit.formats.chpp.DescriptorLayouts;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
import org.flitkit.hdl.lib.Queue;

/**
 * The send engine's descriptor-extract stage (paper, section 4.1, the DMA send engine: descriptor extract; spec
 * 30-chpp-dma.md, "Engine structure"): decodes each fetched descriptor in hardware with formats/chpp's field
 * positions and rules. A malformed descriptor, or a failed read, becomes a {@link SendCompletionEvent} with the
 * formats' status and nothing is sent; a NAP, PUT or chain gives a {@link SendControl} and its source and
 * destination {@link SegmentBeat}s (a NAP immediate its data beats) for the data-read stage; a GET becomes a GET
 * packet (16-byte header + the descriptor) on {@link #get}. One descriptor at a time: the whole descriptor is
 * checked before anything leaves. docs/chpp-send-engine.md.
 */
public final class DescriptorExtract extends Module {
    public final ChppParams params;
    public final SendEngineParams sendParams;
    /** Fetched descriptors from {@link DescriptorRead#out}. */
    public final Decoupled<DescriptorBeat> in;
    /** One per NAP, PUT or chain descriptor, before its segments. */
    public final Decoupled<SendControl> control;
    /** Source segments (NAP indirect, PUT, chain), in descriptor order. */
    public final Decoupled<SegmentBeat> src;
    /** Destination segments (PUT, chain), in descriptor order. */
    public final Decoupled<SegmentBeat> dst;
    /** A NAP immediate's data, 16 bytes a beat in PCIe order (byte i in bits 8i+7..8i); padding bytes are 0. */
    public final Decoupled<PacketBeat> napData;
    /** GET packets: the header beat, then the 32-byte descriptor in two beats, in wire order (byte 0 in bits 127:120). */
    public final Decoupled<PacketBeat> get;
    /** Send completions: refused and failed descriptors, and GETs with SCE once their packet has left. */
    public final Decoupled<SendCompletionEvent> event;
    /** Descriptors refused (BAD_DESCRIPTOR or LENGTH_MISMATCH), saturating. */
    public final UInt refused;
    /** Failed reads passed on (PCIE_ERROR, COMPLETION_TIMEOUT, refused doorbell length), saturating. */
    public final UInt readErrors;

    /**
     * Receiving a descriptor, its event out then its body dropped, its control word then its body to the
     * streams, a GET's header then its two descriptor beats. docs/chpp-send-engine.md.
     */
    private enum State { RECV, EVENT, DRAIN, CTRL, BODY, GET_HEADER, GET_BODY }

    public DescriptorExtract(ChppParams p, SendEngineParams sp) {
        if (p.functions() > 1 << Chpp.FUNCTION_BITS) {
            throw new IllegalArgumentException("functions " + p.functions() + " above " + (1 << Chpp.FUNCTION_BITS)
                    + ": SRC_ID names the function with " + Chpp.FUNCTION_BITS + " bits (docs/chpp-formats.md)");
        }
        params = p;
        sendParams = sp;
        in = input(Decoupled.of(DescriptorBeat::new));
        control = output(Decoupled.of(SendControl::new));
        src = output(Decoupled.of(SegmentBeat::new));
        dst = output(Decoupled.of(SegmentBeat::new));
        napData = output(Decoupled.of(PacketBeat::new));
        get = output(Decoupled.of(PacketBeat::new));
        event = output(Decoupled.of(SendCompletionEvent::new));
        refused = output(UInt(Counters.BITS));
        readErrors = output(UInt(Counters.BITS));

        DescriptorLayouts.NapImmediate lImm = DescriptorLayouts.NAP_IMMEDIATE;
        DescriptorLayouts.NapIndirect lInd = DescriptorLayouts.NAP_INDIRECT;
        DescriptorLayouts.Transfer lPut = DescriptorLayouts.PUT;
        DescriptorLayouts.Chain lCh = DescriptorLayouts.CHAIN;
        DescriptorLayouts.Segment lSeg = DescriptorLayouts.SEGMENT;

        // the body (beats after the first) waits here until the whole descriptor is checked: at most 255 beats
        Queue<UInt> body = instance("body", new Queue<>(() -> UInt(PacketBeat.DATA_BITS), Chpp.MAX_SEGMENTS));
        Fsm<State> fsm = new Fsm<>(State.class);
        Counter beat = new Counter(256).named("beat");
        UInt head0 = regInit(UInt(PacketBeat.DATA_BITS), 0).named("head0");
        // the event to send; its function is the descriptor's, also named in the control word and the GET header
        SendCompletionEvent ev = regInit(new SendCompletionEvent(), 0).named("ev");
        UInt fn = ev.function;
        Bool resp = regInit(Bool(), 0).named("resp");
        UInt srcTotal = regInit(UInt(41), 0).named("srcTotal");
        UInt dstTotal = regInit(UInt(41), 0).named("dstTotal");
        Bool bad = regInit(Bool(), 0).named("bad");
        Counter bodyBeat = new Counter(256).named("bodyBeat");
        Bool srcSent = regInit(Bool(), 0).named("srcSent");
        Bool dstSent = regInit(Bool(), 0).named("dstSent");

        UInt data = in.bits.data;
        Bool first = beat.value.eq(0);
        // the head as decoded now: this beat while it is the first, the register afterwards
        UInt hd = mux(first, data, head0);
        UInt kind = field(hd, lImm.KIND, 0);
        Bool isImm = kind.eq(DescKind.NAP_IMMEDIATE.code());
        Bool isInd = kind.eq(DescKind.NAP_INDIRECT.code());
        Bool isPut = kind.eq(DescKind.PUT.code());
        Bool isGet = kind.eq(DescKind.GET.code());
        Bool isChain = kind.eq(DescKind.CHAIN.code());
        Bool kindOk = isImm.or(isInd).or(isPut).or(isGet).or(isChain);
        UInt napLen = field(hd, lImm.LENGTH, 0);
        UInt xferLen = field(hd, lPut.LENGTH, 0);
        UInt sCount = field(hd, lCh.SRC_COUNT, 0);
        UInt dCount = field(hd, lCh.DST_COUNT, 0);
        Bool rce = field(hd, lImm.RCE, 0).bit(0);
        Bool sce = field(hd, lImm.SCE, 0).bit(0);
        UInt len = in.bits.length;

        // ---- the first beat: Kind, the kind's size against the fetched length, reserved bits, the head's rules
        UInt immSize = napLen.pad(13).add(7).and(lit(~7L & 0x1FFF, 13)).add(Chpp.DESC_HEAD_BYTES);
        UInt segs = sCount.pad(9).add(dCount.pad(9));
        UInt chainSize = segs.pad(13).shl(4).trunc(13).add(Chpp.DESC_HEAD_BYTES);
        Bool napTooLarge = napLen.gt(Chpp.MAX_NAP);
        Bool badImm = napTooLarge.or(len.ne(immSize)).or(reservedSet(data, lImm, 0)).or(rce.not());
        Bool badInd = len.ne(Descriptor_NAP_INDIRECT_BYTES).or(reservedSet(data, lInd, 0)).or(napTooLarge).or(rce.not());
        Bool badXfer = len.ne(Descriptor_TRANSFER_BYTES).or(reservedSet(data, lPut, 0)).or(xferLen.eq(0));
        Bool badChain = sCount.eq(0).or(dCount.eq(0)).or(segs.gt(Chpp.MAX_SEGMENTS)).or(len.ne(chainSize))
                .or(reservedSet(data, lCh, 0));
        Bool bad0 = kindOk.not().or(isImm.and(badImm)).or(isInd.and(badInd)).or(isPut.or(isGet).and(badXfer))
                .or(isChain.and(badChain));

        // ---- later beats: a PUT's or GET's destination range, a NAP's padding, each chain segment
        UInt dstAddr = field(data, lPut.DST_ADDR, 1);
        Bool badXferDst = remoteTooWide(dstAddr, xferLen);
        List<Bool> padBad = new ArrayList<>();
        UInt dataEnd = napLen.pad(13).add(Chpp.DESC_HEAD_BYTES);
        for (int i = 0; i < PacketBeat.DATA_BYTES; i++) {
            UInt pos = cat(beat.value, lit(i, 4)).pad(13);
            padBad.add(pos.ge(dataEnd).and(data.bits(8 * i + 7, 8 * i).ne(0)));
        }
        Bool badPad = orAll(padBad);
        UInt segAddr = field(data, lSeg.ADDRESS, 0);
        UInt segLen = field(data, lSeg.LENGTH, 0);
        Bool segIsSrc = beat.value.le(sCount);
        Bool badSeg = reservedSet(data, lSeg.layout(), 0).or(segLen.eq(0)).or(segIsSrc.not().and(remoteTooWide(segAddr, segLen)));
        Bool badLater = isImm.and(badPad).or(isPut.or(isGet).and(beat.value.eq(1)).and(badXferDst)).or(isChain.and(badSeg));
        Bool beatBad = mux(first, bad0, badLater);
        UInt srcNext = mux(isChain.and(first.not()).and(segIsSrc), srcTotal.add(segLen.pad(41)), srcTotal);
        UInt dstNext = mux(isChain.and(first.not()).andNot(segIsSrc), dstTotal.add(segLen.pad(41)), dstTotal);

        // ---- the decision, on the last beat: the formats' status for the first rule broken
        Bool otherBad = bad.or(beatBad);
        Bool lengthMismatch = isChain.and(srcNext.ne(dstNext));
        Bool tooLarge = isChain.and(srcNext.gt(Chpp.MAX_TRANSFER));
        Bool qpMismatch = field(hd, lImm.QP, 0).ne(in.bits.qp);
        Bool readOk = in.bits.status.eq(CompletionStatus.OK.code());
        UInt decided = mux(otherBad, lit(CompletionStatus.BAD_DESCRIPTOR.code(), 8),
                mux(lengthMismatch, lit(CompletionStatus.LENGTH_MISMATCH.code(), 8),
                        mux(tooLarge.or(qpMismatch), lit(CompletionStatus.BAD_DESCRIPTOR.code(), 8), lit(CompletionStatus.OK.code(), 8))));

        Bool inRecv = fsm.is(State.RECV);
        body.enq.valid.assign(inRecv.and(in.valid).and(first.not()).and(readOk));
        body.enq.bits.assign(data);
        in.ready.assign(inRecv.and(first.or(body.enq.ready)));
        Bool take = in.fire();
        refused.assign(Counters.count(take.and(in.bits.last).and(readOk).and(decided.ne(CompletionStatus.OK.code())), "refusedCount"));
        readErrors.assign(Counters.count(take.and(readOk.not()), "readErrorCount"));
        when(take, () -> {
            when(first, () -> head0.assign(data));
            fn.assign(in.bits.function);
            resp.assign(in.bits.resp);
            bad.assign(otherBad);
            srcTotal.assign(srcNext);
            dstTotal.assign(dstNext);
            beat.inc();
            when(in.bits.last, () -> {
                beat.clear();
                bad.assign(FALSE());
                srcTotal.assign(0);
                dstTotal.assign(0);
                bodyBeat.load(1);
                ev.qp.assign(in.bits.qp);
                when(readOk.not(), () -> {
                    ev.status.assign(in.bits.status);
                    ev.kind.assign(0);
                    ev.cookie.assign(0);
                    ev.bytes.assign(0);
                    fsm.goTo(State.EVENT);
                }).elsewhen(decided.ne(CompletionStatus.OK.code()), () -> {
                    ev.status.assign(decided);
                    ev.kind.assign(mux(kindOk, kind, lit(0, 4)));
                    ev.cookie.assign(field(hd, lImm.COOKIE, 0));
                    ev.bytes.assign(0);
                    fsm.goTo(State.EVENT);
                }).elsewhen(isGet, () -> {
                    fsm.goTo(State.GET_HEADER);
                }).otherwise(() -> {
                    // the chain's total, for the control word (the head register has the rest)
                    srcTotal.assign(srcNext);
                    fsm.goTo(State.CTRL);
                });
            });
        });

        // ---- refused or failed: one event, then the body is dropped
        event.valid.assign(fsm.is(State.EVENT));
        event.bits.assign(ev);
        when(event.fire(), () -> fsm.goTo(State.DRAIN));
        Bool draining = fsm.is(State.DRAIN);
        when(draining.and(body.count.eq(0)), () -> fsm.goTo(State.RECV));

        // ---- NAP, PUT, chain: control, then the body beats to their streams
        UInt hKind = field(head0, lImm.KIND, 0);
        Bool hImm = hKind.eq(DescKind.NAP_IMMEDIATE.code());
        Bool hInd = hKind.eq(DescKind.NAP_INDIRECT.code());
        Bool hPut = hKind.eq(DescKind.PUT.code());
        Bool hChain = hKind.eq(DescKind.CHAIN.code());
        UInt hNapLen = field(head0, lImm.LENGTH, 0);
        UInt hLen = field(head0, lPut.LENGTH, 0);
        UInt hS = field(head0, lCh.SRC_COUNT, 0);
        UInt hD = field(head0, lCh.DST_COUNT, 0);
        control.valid.assign(fsm.is(State.CTRL));
        controlWord(control.bits, head0, fn, resp, srcTotal);
        when(control.fire(), () -> {
            when(body.count.eq(0), () -> fsm.goTo(State.RECV)).otherwise(() -> fsm.goTo(State.BODY));
            srcTotal.assign(0); // held the chain's total for the control word; the next descriptor starts from 0
        });

        Bool inBody = fsm.is(State.BODY);
        UInt b = body.deq.bits;
        Bool chainSrc = bodyBeat.value.le(hS);
        Bool indSeg = hInd.and(hNapLen.ne(0));
        src.valid.assign(inBody.and(body.deq.valid).and(hPut.andNot(srcSent).or(indSeg).or(hChain.and(chainSrc))));
        src.bits.address.assign(field(b, lSeg.ADDRESS, 0));
        src.bits.length.assign(mux(hChain, field(b, lSeg.LENGTH, 0), mux(hPut, hLen, hNapLen.pad(32))));
        src.bits.last.assign(hChain.not().or(bodyBeat.value.eq(hS)));
        dst.valid.assign(inBody.and(body.deq.valid).and(hPut.andNot(dstSent).or(hChain.andNot(chainSrc))));
        dst.bits.address.assign(mux(hPut, field(b, lPut.DST_ADDR, 1), field(b, lSeg.ADDRESS, 0)));
        dst.bits.length.assign(mux(hChain, field(b, lSeg.LENGTH, 0), hLen));
        dst.bits.last.assign(hChain.not().or(bodyBeat.value.eq(hS.pad(9).add(hD.pad(9)).trunc(8))));
        napData.valid.assign(inBody.and(body.deq.valid).and(hImm));
        napData.bits.data.assign(b);
        napData.bits.last.assign(body.count.eq(1));
        Bool putDone = srcSent.or(src.ready).and(dstSent.or(dst.ready));
        Bool bodyReady = mux(hImm, napData.ready, mux(hInd, indSeg.not().or(src.ready),
                mux(hPut, putDone, mux(chainSrc, src.ready, dst.ready))));

        // ---- GET: the header beat, then the descriptor's two beats in wire order
        Bool getTakesBody = getPacket(fsm, body.deq, head0, ev, sp);

        body.deq.ready.assign(draining.or(inBody.and(bodyReady)).or(getTakesBody));
        when(inBody.and(body.deq.fire()), () -> {
            bodyBeat.inc();
            srcSent.assign(FALSE());
            dstSent.assign(FALSE());
            when(body.count.eq(1), () -> fsm.goTo(State.RECV));
        }).elsewhen(inBody.and(hPut), () -> {
            when(src.fire(), () -> srcSent.assign(TRUE()));
            when(dst.fire(), () -> dstSent.assign(TRUE()));
        });
    }

    /**
     * A GET's packet on {@link #get}: the header beat, then the descriptor's two beats in wire order (the second from
     * the body queue {@code bodyDeq}); then its event if SCE is set. Returns: the body beat is taken now.
     * docs/chpp-send-engine.md, "From descriptor to packets".
     */
    private Bool getPacket(Fsm<State> fsm, Decoupled<UInt> bodyDeq, UInt head0, SendCompletionEvent ev, SendEngineParams sp) {
        DescriptorLayouts.NapImmediate lImm = DescriptorLayouts.NAP_IMMEDIATE;
        Bool getSecond = regInit(Bool(), 0).named("getSecond");
        Bool inGetBody = fsm.is(State.GET_BODY);
        UInt getWord = mux(getSecond, bodyDeq.bits, head0);
        get.valid.assign(fsm.is(State.GET_HEADER).or(inGetBody.and(getSecond.not().or(bodyDeq.valid))));
        get.bits.data.assign(mux(inGetBody, LayoutBits.byteReverse(getWord), getHeader(head0, ev.function, sp)));
        get.bits.last.assign(inGetBody.and(getSecond));
        when(get.fire(), () -> {
            when(fsm.is(State.GET_HEADER), () -> {
                fsm.goTo(State.GET_BODY);
                getSecond.assign(FALSE());
            }).elsewhen(getSecond.not(), () -> getSecond.assign(TRUE())).otherwise(() -> {
                getSecond.assign(FALSE());
                // a GET's send completion says its packet left (docs/chpp-formats.md, "Completion rings")
                ev.status.assign(CompletionStatus.OK.code());
                ev.kind.assign(DescKind.GET.code());
                ev.cookie.assign(field(head0, lImm.COOKIE, 0));
                ev.bytes.assign(field(head0, DescriptorLayouts.PUT.LENGTH, 0));
                when(field(head0, lImm.SCE, 0).bit(0), () -> fsm.goTo(State.EVENT)).otherwise(() -> fsm.goTo(State.RECV));
            });
        });
        return inGetBody.and(getSecond).and(get.ready);
    }

    /**
     * The control word of the NAP, PUT or chain whose head is {@code head0}: a chain's length is its source
     * segments' total. docs/chpp-send-engine.md, "From descriptor to packets".
     */
    private static void controlWord(SendControl c, UInt head0, UInt fn, Bool resp, UInt srcTotal) {
        DescriptorLayouts.NapImmediate lImm = DescriptorLayouts.NAP_IMMEDIATE;
        UInt hKind = field(head0, lImm.KIND, 0);
        Bool hInd = hKind.eq(DescKind.NAP_INDIRECT.code());
        Bool hPut = hKind.eq(DescKind.PUT.code());
        Bool hChain = hKind.eq(DescKind.CHAIN.code());
        UInt hNapLen = field(head0, lImm.LENGTH, 0);
        UInt hLen = field(head0, DescriptorLayouts.PUT.LENGTH, 0);
        UInt hS = field(head0, DescriptorLayouts.CHAIN.SRC_COUNT, 0);
        UInt hD = field(head0, DescriptorLayouts.CHAIN.DST_COUNT, 0);
        c.kind.assign(hKind);
        c.function.assign(fn);
        c.qp.assign(field(head0, lImm.QP, 0));
        c.sce.assign(field(head0, lImm.SCE, 0).bit(0));
        c.rce.assign(field(head0, lImm.RCE, 0).bit(0));
        c.resp.assign(resp);
        c.dstId.assign(field(head0, lImm.DST_ID, 0));
        c.qpMagic.assign(field(head0, lImm.QP_MAGIC, 0));
        c.cookie.assign(field(head0, lImm.COOKIE, 0));
        c.length.assign(mux(hChain, srcTotal.trunc(32), mux(hPut, hLen, hNapLen.pad(32))));
        c.srcCount.assign(mux(hChain, hS, mux(hPut.or(hInd.and(hNapLen.ne(0))), lit(1, 8), lit(0, 8))));
        c.dstCount.assign(mux(hChain, hD, mux(hPut, lit(1, 8), lit(0, 8))));
    }

    private static final int Descriptor_NAP_INDIRECT_BYTES = org.flitkit.formats.chpp.Descriptor.NAP_INDIRECT_BYTES;
    private static final int Descriptor_TRANSFER_BYTES = org.flitkit.formats.chpp.Descriptor.PUT_BYTES;

    /** Field {@code f} of a layout, read from the descriptor's 16-byte beat {@code beat} (the field must lie in it). */
    public static UInt field(UInt beatData, Field f, int beat) {
        int lo = f.lsb() - 128 * beat;
        int hi = lo + f.width() - 1;
        if (lo < 0 || hi > 127) {
            throw new IllegalStateException("field " + f.name() + " [" + f.bits() + "] is not in beat " + beat);
        }
        return beatData.bits(hi, lo);
    }

    /** Some reserved bit of {@code format} that lies in beat {@code beat} is set (formats/chpp's reserved gaps). */
    public static Bool reservedSet(UInt beatData, Format format, int beat) {
        return reservedSet(beatData, format.layout(), beat);
    }

    public static Bool reservedSet(UInt beatData, org.flitkit.formats.core.Layout layout, int beat) {
        List<Bool> set = new ArrayList<>();
        for (Field gap : layout.reserved()) {
            int lo = Math.max(gap.lsb() - 128 * beat, 0);
            int hi = Math.min(gap.lsb() + gap.width() - 1 - 128 * beat, 127);
            if (lo <= hi) {
                set.add(beatData.bits(hi, lo).orR());
            }
        }
        return orAll(set);
    }

    /** A receiver's range beyond the 48-bit global address space (formats/chpp rule address-too-wide). */
    public static Bool remoteTooWide(UInt addr64, UInt length32) {
        UInt end = addr64.bits(Chpp.ADDRESS_BITS - 1, 0).addW(length32.pad(Chpp.ADDRESS_BITS));
        return addr64.bits(63, Chpp.ADDRESS_BITS).orR().or(end.gt(lit(BigInteger.ONE.shiftLeft(Chpp.ADDRESS_BITS), Chpp.ADDRESS_BITS + 1)));
    }

    /** The GET packet's header (docs/chpp-send-engine.md, "From descriptor to packets"), by the shared {@link PacketHeaders}. */
    static UInt getHeader(UInt head, UInt fn, SendEngineParams sp) {
        HeaderLayout.Header h = HeaderLayout.HEADER;
        DescriptorLayouts.Transfer l = DescriptorLayouts.GET;
        return PacketHeaders.header(sp, sp.getTc(), lit(PktType.GET.code(), h.PKT_TYPE.width()),
                lit(HeaderLayout.S_FLAG_LAST, h.S_FLAG.width()), lit(org.flitkit.formats.chpp.Descriptor.GET_BYTES, h.LENGTH.width()),
                fn, field(head, l.QP, 0), field(head, l.QP_MAGIC, 0), field(head, l.DST_ID, 0), lit(0, h.ADDRESS.width()));
    }
}
