package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.Counters;

import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.upload.GetAnswer;
import org.flitkit.rtl.chpp.xbar.DmaCrossbar;
import static org.flitkit.hdl.Hdl.*;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.DescKind;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.Status;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;

/**
 * The send engine's packer (paper section 4.1: builds packets with the 16-byte hardware header and sends them to
 * the intra-DMA crossbar; spec 30-chpp-dma.md, "Engine structure"): one NAP packet per NAP descriptor, a PUT or
 * chain cut into PUT packets of at most {@link SendEngineParams#mtu} bytes that never cross a destination segment,
 * the source bytes realigned to each packet's first byte. Store-and-forward per packet: a packet leaves only once
 * its whole payload is buffered, so a source read that fails mid-transfer never truncates a packet. A failed GET
 * answer ends with a header-only PUT (Length 0, CE+LAST+RESP) so that the requester's GET ends too (formats/chpp
 * {@code Packets.failedAnswerHeader}). docs/chpp-packer.md.
 */
public final class Packer extends Module {
    /** Traffic class of NAP and PUT packets (GET has {@link SendEngineParams#getTc}). */
    public static final int DATA_TC = 0;
    /** Packet descriptors (and failure events) queued between the filling and the sending side. */
    public static final int META_DEPTH = 4;
    /** Send completions waiting for the ring writer. */
    public static final int EVENT_DEPTH = 2;

    public final SendEngineParams params;
    /** Payload buffer in 16-byte beats: two of the largest packets (a PUT of {@code mtu} or a 2048-byte NAP). */
    public final int bufferBeats;

    /** One per NAP immediate, NAP indirect, PUT or chain, from {@link DescriptorExtract#control}. */
    public final Decoupled<SendControl> control;
    /** PUT: its one destination segment; chain: the destination list ({@code last} on the final one). */
    public final Decoupled<SegmentBeat> dst;
    /** A NAP immediate's data, PCIe byte order, from {@link DescriptorExtract#napData}. */
    public final Decoupled<PacketBeat> napData;
    /** Source bytes of a NAP indirect, PUT or chain from the data stages ({@link DataBeat}); an error beat ends the transfer. */
    public final Decoupled<DataBeat> data;
    /** Packets to {@link DmaCrossbar#in}: header beat, then the payload in wire order, {@code last} on the final beat. */
    public final Decoupled<PacketBeat> out;
    /**
     * Send completions: OK when SCE is set, and every failed transfer (its status, the bytes sent before the failure;
     * a failed GET answer's too, after its failure packet).
     */
    public final Decoupled<SendCompletionEvent> event;
    /** Packets sent (their last beat taken; a failed GET answer's header-only packet too), saturating. */
    public final UInt packets;
    /** Transfers ended (successfully or not), saturating. */
    public final UInt transfers;
    /** Transfers ended by a failure (error beat, malformed input), saturating. */
    public final UInt errors;
    /**
     * Failed GET answers (transfers with {@code resp}) ended by their header-only packet (PUT, Length 0, S_Flag
     * CE+LAST+RESP, Address where the failed packet would have started), saturating. docs/chpp-packer.md, "How it works".
     */
    public final UInt failedAnswers;
    /** Malformed inputs (a control word the formats refuse, or streams longer or shorter than the transfer), saturating. */
    public final UInt malformed;
    /** Payload beats in the buffer (written, not yet sent). */
    public final UInt bufferedBeats;

    /** What the filling side hands the sending side: a packet (header, payload beats in the buffer) and/or an event. */
    static final class Meta extends Bundle {
        public final UInt header = UInt(PacketBeat.DATA_BITS);
        public final UInt beats = UInt(Bitwise.log2Up(Chpp.MAX_PAYLOAD / PacketBeat.DATA_BYTES + 1));
        public final Bool hasPacket = Bool();
        public final Bool hasEvent = Bool();
        public final UInt status = UInt(Status.BITS);
        public final UInt bytes = UInt(32);
        public final UInt function = UInt(Doorbell.FUNCTION_BITS);
        public final UInt qp = UInt(Doorbell.QP_BITS);
        public final UInt kind = UInt(4);
        public final UInt cookie = UInt(16);
    }

    private static final int IDLE = 0;
    private static final int SEG = 1;
    private static final int FILL = 2;
    private static final int FAIL = 3;
    private static final int END = 4;

    public Packer(SendEngineParams sp) {
        params = sp;
        int mtu = sp.mtu();
        bufferBeats = 2 * Math.max(mtu, Chpp.MAX_NAP) / PacketBeat.DATA_BYTES;
        int ab = Bitwise.log2Up(bufferBeats);
        control = input(Decoupled.of(SendControl::new));
        dst = input(Decoupled.of(SegmentBeat::new));
        napData = input(Decoupled.of(PacketBeat::new));
        data = input(Decoupled.of(DataBeat::new));
        out = output(Decoupled.of(PacketBeat::new));
        event = output(Decoupled.of(SendCompletionEvent::new));
        packets = output(UInt(Counters.BITS));
        transfers = output(UInt(Counters.BITS));
        errors = output(UInt(Counters.BITS));
        failedAnswers = output(UInt(Counters.BITS));
        malformed = output(UInt(Counters.BITS));
        bufferedBeats = output(UInt(ab + 1));

        HeaderLayout.Header h = HeaderLayout.HEADER;
        Queue<Meta> meta = instance("meta", new Queue<>(Meta::new, META_DEPTH));
        Queue<SendCompletionEvent> evq = instance("events", new Queue<>(SendCompletionEvent::new, EVENT_DEPTH));
        Mem<UInt> buf = mem(bufferBeats, UInt(PacketBeat.DATA_BITS)).named("payload");

        // ---- the transfer being filled
        UInt state = regInit(UInt(3), IDLE).named("state");
        UInt kind = regInit(UInt(4), 0).named("kind");
        UInt fn = regInit(UInt(Doorbell.FUNCTION_BITS), 0).named("fn");
        UInt qp = regInit(UInt(Doorbell.QP_BITS), 0).named("qp");
        Bool sce = regInit(Bool(), 0).named("sce");
        Bool rce = regInit(Bool(), 0).named("rce");
        Bool resp = regInit(Bool(), 0).named("resp");
        UInt dstId = regInit(UInt(8), 0).named("dstId");
        UInt qpMagic = regInit(UInt(16), 0).named("qpMagic");
        UInt cookie = regInit(UInt(16), 0).named("cookie");
        Bool isImm = regInit(Bool(), 0).named("isImm");
        Bool isNap = regInit(Bool(), 0).named("isNap");
        UInt xferLeft = regInit(UInt(32), 0).named("xferLeft");
        UInt sent = regInit(UInt(32), 0).named("sent");
        UInt segAddr = regInit(UInt(Chpp.ADDRESS_BITS), 0).named("segAddr");
        UInt segLeft = regInit(UInt(32), 0).named("segLeft");
        UInt pktAddr = regInit(UInt(Chpp.ADDRESS_BITS), 0).named("pktAddr");
        UInt pktLen = regInit(UInt(h.LENGTH.width()), 0).named("pktLen");
        UInt pktLeft = regInit(UInt(h.LENGTH.width()), 0).named("pktLeft");
        Bool pktLast = regInit(Bool(), 0).named("pktLast");
        Bool dstSeen = regInit(Bool(), 0).named("dstSeenLast");
        Bool dataSeen = regInit(Bool(), 0).named("dataSeenLast");
        UInt failStatus = regInit(UInt(Status.BITS), 0).named("failStatus");
        // the failed transfer is a GET answer whose requester must learn of the failure: its FAIL entry carries the
        // header-only failure packet (Address = pktAddr, where the failed packet would have started)
        Bool failPkt = regInit(Bool(), 0).named("failPkt");
        Bool answerFails = resp.andNot(isNap);
        // source bytes taken but not yet placed in a packet (at most 15), byte 0 in bits 7:0
        UInt hold = regInit(UInt(PacketBeat.DATA_BITS), 0).named("hold");
        UInt holdN = regInit(UInt(5), 0).named("holdN");
        // payload ring: written at wr, the packet being filled started at pktStart, the sender reads at rd
        UInt wr = regInit(UInt(ab + 1), 0).named("wr");
        UInt pktStart = regInit(UInt(ab + 1), 0).named("pktStart");
        UInt rd = regInit(UInt(ab + 1), 0).named("rd");
        UInt used = wr.sub(rd);
        bufferedBeats.assign(used);

        Bool sIdle = state.eq(IDLE);
        Bool sSeg = state.eq(SEG);
        Bool sFill = state.eq(FILL);
        Bool sFail = state.eq(FAIL);
        Bool sEnd = state.eq(END);

        // ---- the source stream: NAP immediate data or the data stages' beats, as one byte stream
        Bool inReady = wireDefault(Bool(), 0).named("inReady");
        napData.ready.assign(inReady.and(isImm));
        data.ready.assign(inReady.andNot(isImm));
        Bool inValid = mux(isImm, napData.valid, data.valid);
        Bool inFire = inValid.and(inReady);
        UInt inData = mux(isImm, napData.bits.data, data.bits.data);
        UInt dBytes = mux(data.bits.bytes.gt(PacketBeat.DATA_BYTES), lit(PacketBeat.DATA_BYTES, 5), data.bits.bytes);
        UInt inBytes = mux(isImm, lit(PacketBeat.DATA_BYTES, 5), dBytes);
        Bool inLast = mux(isImm, napData.bits.last, data.bits.last);
        Bool inErr = isImm.not().and(data.bits.status.ne(Status.OK.code()));

        // ---- the byte shifter: the next payload beat is w bytes from hold, topped up from the input beat
        UInt w = mux(pktLeft.gt(PacketBeat.DATA_BYTES), lit(PacketBeat.DATA_BYTES, 5), pktLeft.trunc(5));
        Bool zeroPkt = pktLeft.eq(0);
        Bool needIn = holdN.lt(w);
        Bool lastOfPkt = pktLeft.le(PacketBeat.DATA_BYTES);
        UInt inMasked = keepBytes(inData, inBytes);
        UInt shifted = inMasked.shl(cat(holdN.bits(3, 0), lit(0, 3))).pad(2 * PacketBeat.DATA_BITS);
        UInt combined = hold.pad(2 * PacketBeat.DATA_BITS).or(mux(needIn, shifted, lit(0, 2 * PacketBeat.DATA_BITS)));
        UInt avail = holdN.pad(6).add(mux(needIn, inBytes.pad(6), lit(0, 6)));
        Bool enough = avail.ge(w.pad(6));
        UInt rest = combined.shr(cat(w, lit(0, 3))).bits(PacketBeat.DATA_BITS - 1, 0);
        Bool canWrite = used.lt(bufferBeats).and(lastOfPkt.not().or(meta.enq.ready));
        Bool doWrite = sFill.and(zeroPkt.not()).and(canWrite).and(mux(needIn, inFire.andNot(inErr).and(enough), TRUE()));
        Bool commit = sFill.and(zeroPkt.and(meta.enq.ready).or(doWrite.and(lastOfPkt)));
        Bool dataSeenNext = dataSeen.or(inFire.and(inLast.or(inErr)));

        // ---- the packet's header, from the transfer and the packet registers
        // in FAIL it is the failed GET answer's header-only packet: CE always (the error must reach the requester's
        // software whatever the GET's RCE), LAST, RESP, Length 0
        UInt sFlag = mux(sFail, lit(HeaderLayout.S_FLAG_FAILED_ANSWER, h.S_FLAG.width()),
                mux(isNap, lit(HeaderLayout.S_FLAG_CE | HeaderLayout.S_FLAG_LAST, h.S_FLAG.width()),
                        cat(resp, pktLast, pktLast.and(rce))));
        UInt header = PacketHeaders.header(sp, DATA_TC,
                mux(isNap, lit(PktType.NAP.code(), h.PKT_TYPE.width()), lit(PktType.PUT.code(), h.PKT_TYPE.width())),
                sFlag, mux(sFail, lit(0, h.LENGTH.width()), pktLen), fn, qp, qpMagic, dstId,
                mux(isNap, lit(0, h.ADDRESS.width()), pktAddr));

        meta.enq.valid.assign(commit.or(sFail));
        meta.enq.bits.header.assign(header);
        meta.enq.bits.beats.assign(mux(sFail, lit(0, meta.enq.bits.beats.width()),
                pktLen.add(PacketBeat.DATA_BYTES - 1).shr(4).pad(meta.enq.bits.beats.width())));
        meta.enq.bits.hasPacket.assign(sFail.not().or(failPkt));
        meta.enq.bits.hasEvent.assign(sFail.or(pktLast.and(sce)));
        meta.enq.bits.status.assign(mux(sFail, failStatus, lit(Status.OK.code(), Status.BITS)));
        meta.enq.bits.bytes.assign(mux(sFail, sent, sent.add(pktLen.pad(32))));
        meta.enq.bits.function.assign(fn);
        meta.enq.bits.qp.assign(qp);
        meta.enq.bits.kind.assign(kind);
        meta.enq.bits.cookie.assign(cookie);

        // ---- control and destination segments through small flow queues: the transfer's start can then overlap the
        // previous transfer's last payload beat without a combinational path from one input stream to another's ready
        Queue<SendControl> ctlq = instance("controlIn", new Queue<>(SendControl::new, 2, false, true));
        Queue<SegmentBeat> dstq = instance("dstIn", new Queue<>(SegmentBeat::new, 2, false, true));
        ctlq.enq.valid.assign(control.valid);
        ctlq.enq.bits.assign(control.bits);
        control.ready.assign(ctlq.enq.ready);
        dstq.enq.valid.assign(dst.valid);
        dstq.enq.bits.assign(dst.bits);
        dst.ready.assign(dstq.enq.ready);
        Decoupled<SegmentBeat> seg = dstq.deq;
        SendControl c = ctlq.deq.bits;
        Bool cNap = c.kind.eq(DescKind.NAP_IMMEDIATE.code()).or(c.kind.eq(DescKind.NAP_INDIRECT.code()));
        Bool cPut = c.kind.eq(DescKind.PUT.code()).or(c.kind.eq(DescKind.CHAIN.code()));
        Bool cBad = cNap.or(cPut).not().or(cNap.and(c.length.gt(Chpp.MAX_NAP))).or(cPut.and(c.length.eq(0)));
        Bool dstReady = wireDefault(Bool(), 0).named("dstReady");
        seg.ready.assign(dstReady);
        Bool badEvent = wireDefault(Bool(), 0).named("malformedEvent");
        // a transfer ends cleanly when its last packet is committed and both its streams have given their last beat
        Bool endsClean = commit.and(pktLast).and(dstSeen).and(dataSeenNext);
        Bool startNow = ctlq.deq.valid.and(sIdle.or(endsClean));
        ctlq.deq.ready.assign(sIdle.or(endsClean));
        // the first segment of a PUT or chain is taken with its control word
        Bool takeFirstSeg = startNow.and(cPut).andNot(cBad).and(c.dstCount.ne(0));
        Runnable start = () -> {
            kind.assign(c.kind);
            fn.assign(c.function);
            qp.assign(c.qp);
            sce.assign(c.sce);
            rce.assign(c.rce);
            resp.assign(c.resp);
            dstId.assign(c.dstId);
            qpMagic.assign(c.qpMagic);
            cookie.assign(c.cookie);
            Bool imm = c.kind.eq(DescKind.NAP_IMMEDIATE.code());
            isImm.assign(imm);
            isNap.assign(cNap);
            sent.assign(0);
            hold.assign(0);
            holdN.assign(0);
            dstSeen.assign(c.dstCount.eq(0));
            // data comes on napData for a NAP immediate with bytes, on data when there are source segments
            dataSeen.assign(mux(imm, c.length.eq(0), c.srcCount.eq(0)));
            xferLeft.assign(c.length);
            // a control word refused at the start names no destination yet: no failure packet (GetAnswer never
            // sends one: it refuses zero-length GETs)
            failPkt.assign(FALSE());
            when(cBad, () -> {
                badEvent.assign(TRUE());
                failStatus.assign(Status.BAD_DESCRIPTOR.code());
                state.assign(FAIL);
            }).elsewhen(cNap, () -> {
                pktAddr.assign(0);
                pktLen.assign(c.length.trunc(h.LENGTH.width()));
                pktLeft.assign(c.length.trunc(h.LENGTH.width()));
                pktLast.assign(TRUE());
                xferLeft.assign(0);
                state.assign(FILL);
            }).elsewhen(seg.fire(), () -> {
                dstSeen.assign(seg.bits.last);
                takeSegment(seg.bits, c.length, mtu, state, segAddr, segLeft, pktAddr, pktLen, pktLeft, pktLast, xferLeft);
            }).otherwise(() -> state.assign(SEG));
        };

        // ---- the next destination segment
        when(sSeg, () -> {
            dstReady.assign(dstSeen.not());
            when(dstSeen, () -> {
                // the destination list ended before the transfer's bytes did: the failure packet names the end of
                // what was sent
                badEvent.assign(TRUE());
                failStatus.assign(Status.PCIE_ERROR.code());
                failPkt.assign(answerFails);
                pktAddr.assign(segAddr);
                state.assign(FAIL);
            }).elsewhen(seg.fire(), () -> {
                dstSeen.assign(seg.bits.last);
                takeSegment(seg.bits, xferLeft, mtu, state, segAddr, segLeft, pktAddr, pktLen, pktLeft, pktLast, xferLeft);
            });
        });

        // ---- filling a packet's payload, one beat per cycle
        when(sFill, () -> {
            inReady.assign(needIn.andNot(dataSeen).and(canWrite).andNot(zeroPkt));
            when(inFire, () -> dataSeen.assign(dataSeenNext));
            when(zeroPkt.not().and(needIn).and(dataSeen), () -> {
                // the source stream ended before the transfer's bytes did
                badEvent.assign(TRUE());
                failStatus.assign(Status.PCIE_ERROR.code());
                failPkt.assign(answerFails);
                state.assign(FAIL);
            }).elsewhen(inFire.and(inErr), () -> {
                failStatus.assign(data.bits.status);
                failPkt.assign(answerFails);
                state.assign(FAIL);
            }).elsewhen(inFire.and(enough.not()), () -> {
                hold.assign(combined.bits(PacketBeat.DATA_BITS - 1, 0));
                holdN.assign(avail.trunc(5));
            });
            when(doWrite, () -> {
                buf.write(wr.bits(ab - 1, 0), LayoutBits.byteReverse(keepBytes(combined.bits(PacketBeat.DATA_BITS - 1, 0), w)));
                wr.assign(wr.add(1));
                hold.assign(rest);
                holdN.assign(avail.sub(w.pad(6)).trunc(5));
                pktLeft.assign(pktLeft.sub(w.pad(h.LENGTH.width())));
            });
            when(commit, () -> {
                pktStart.assign(mux(zeroPkt, wr, wr.add(1)));
                sent.assign(sent.add(pktLen.pad(32)));
                when(pktLast, () -> {
                    badEvent.assign(endsClean.not());
                    state.assign(mux(endsClean, lit(IDLE, 3), lit(END, 3)));
                }).elsewhen(segLeft.eq(0), () -> state.assign(SEG)).otherwise(() -> startPacket(segAddr, segLeft, xferLeft, mtu,
                        state, segAddr, segLeft, pktAddr, pktLen, pktLeft, pktLast, xferLeft));
            });
        });

        // ---- the next transfer starts: from idle, or in the cycle the previous one ends cleanly (after the FILL
        // block, so its assignments win)
        when(sIdle.or(endsClean), () -> dstReady.assign(takeFirstSeg));
        when(startNow, start);

        // ---- a failed transfer: drop the partial packet, queue its event behind the packets already committed
        when(sFail.and(meta.enq.ready), () -> {
            wr.assign(pktStart);
            hold.assign(0);
            holdN.assign(0);
            state.assign(END);
        });

        // ---- the rest of the transfer's segments and source beats, dropped
        when(sEnd, () -> {
            dstReady.assign(dstSeen.not());
            inReady.assign(dataSeen.not());
            when(seg.fire().and(seg.bits.last), () -> dstSeen.assign(TRUE()));
            when(inFire, () -> dataSeen.assign(dataSeenNext));
            when(dstSeen.and(dataSeen), () -> state.assign(IDLE));
        });

        Bool failed = sFail.and(meta.enq.ready);
        transfers.assign(Counters.count(failed.or(commit.and(pktLast)), "transferCount"));
        errors.assign(Counters.count(failed, "errorCount"));
        failedAnswers.assign(Counters.count(failed.and(failPkt), "failedAnswerCount"));
        malformed.assign(Counters.count(badEvent, "malformedCount"));

        // ---- the sending side: header from the meta queue, then the payload beats from the buffer
        Bool sending = regInit(Bool(), 0).named("sending");
        UInt idx = regInit(UInt(meta.deq.bits.beats.width()), 0).named("beatIdx");
        Meta head = meta.deq.bits;
        Bool finalBeat = mux(sending, idx.eq(head.beats.sub(1)), head.beats.eq(0));
        Bool evOk = head.hasEvent.not().or(evq.enq.ready);
        out.valid.assign(meta.deq.valid.and(head.hasPacket).and(finalBeat.not().or(evOk)));
        out.bits.data.assign(mux(sending, buf.read(rd.bits(ab - 1, 0)), head.header));
        out.bits.last.assign(finalBeat);
        when(out.fire(), () -> {
            when(sending, () -> {
                rd.assign(rd.add(1));
                idx.assign(idx.add(1));
            });
            sending.assign(finalBeat.not());
            when(sending.not(), () -> idx.assign(0));
        });
        Bool noPacket = meta.deq.valid.and(head.hasPacket.not()).and(evOk);
        Bool finish = out.fire().and(finalBeat).or(noPacket);
        meta.deq.ready.assign(finish);
        evq.enq.valid.assign(finish.and(head.hasEvent));
        evq.enq.bits.status.assign(head.status);
        evq.enq.bits.function.assign(head.function);
        evq.enq.bits.qp.assign(head.qp);
        evq.enq.bits.kind.assign(head.kind);
        evq.enq.bits.cookie.assign(head.cookie);
        evq.enq.bits.bytes.assign(head.bytes);
        event.valid.assign(evq.deq.valid);
        event.bits.assign(evq.deq.bits);
        evq.deq.ready.assign(event.ready);
        packets.assign(Counters.count(out.fire().and(finalBeat), "packetCount"));
    }

    /** Takes a destination segment: a 0-byte one is skipped (the next is fetched), otherwise its first packet starts. */
    private static void takeSegment(SegmentBeat s, UInt xLeft, int mtu, UInt state, UInt segAddr, UInt segLeft, UInt pktAddr,
                                    UInt pktLen, UInt pktLeft, UInt pktLast, UInt xferLeft) {
        xferLeft.assign(xLeft);
        when(s.length.eq(0), () -> state.assign(SEG)).otherwise(() -> startPacket(s.address.bits(Chpp.ADDRESS_BITS - 1, 0), s.length, xLeft, mtu,
                state, segAddr, segLeft, pktAddr, pktLen, pktLeft, pktLast, xferLeft));
    }

    /** Starts a PUT packet at {@code addr}: min(mtu, segment left, transfer left) bytes; LAST if it ends the transfer. */
    private static void startPacket(UInt addr, UInt segLen, UInt xLeft, int mtu, UInt state, UInt segAddr, UInt segLeft,
                                    UInt pktAddr, UInt pktLen, UInt pktLeft, UInt pktLast, UInt xferLeft) {
        UInt m = mux(segLen.lt(xLeft), segLen, xLeft);
        UInt len = mux(m.gt(mtu), lit(mtu, 32), m);
        UInt len13 = len.trunc(pktLen.width());
        pktAddr.assign(addr);
        pktLen.assign(len13);
        pktLeft.assign(len13);
        pktLast.assign(len.eq(xLeft));
        segAddr.assign(addr.add(len.pad(Chpp.ADDRESS_BITS)));
        segLeft.assign(segLen.sub(len));
        xferLeft.assign(xLeft.sub(len));
        state.assign(FILL);
    }

    /** {@code x} (PCIe byte order) with bytes {@code n} and above zeroed. */
    static UInt keepBytes(UInt x, UInt n) {
        List<UInt> parts = new ArrayList<>();
        for (int i = x.width() / 8 - 1; i >= 0; i--) {
            parts.add(mux(n.gt(i), x.bits(8 * i + 7, 8 * i), lit(0, 8)));
        }
        return cat(parts);
    }
}
