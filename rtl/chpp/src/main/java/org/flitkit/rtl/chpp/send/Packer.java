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
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
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
        public final UInt status = UInt(CompletionStatus.BITS);
        public final UInt bytes = UInt(32);
        public final UInt function = UInt(Doorbell.FUNCTION_BITS);
        public final UInt qp = UInt(Doorbell.QP_BITS);
        public final UInt kind = UInt(4);
        public final UInt cookie = UInt(16);
    }

    /** The filling side's states, in their encoding order. docs/chpp-packer.md, "How it works". */
    private enum State { IDLE, SEG, FILL, FAIL, END }

    /** The transfer being filled: its control word's fields and its progress. */
    static final class Xfer extends Bundle {
        public final UInt kind = UInt(4);
        public final UInt fn = UInt(Doorbell.FUNCTION_BITS);
        public final UInt qp = UInt(Doorbell.QP_BITS);
        public final Bool sce = Bool();
        public final Bool rce = Bool();
        public final Bool resp = Bool();
        public final UInt dstId = UInt(8);
        public final UInt qpMagic = UInt(16);
        public final UInt cookie = UInt(16);
        public final Bool isImm = Bool();
        public final Bool isNap = Bool();
        /** Bytes of the transfer not yet given to a packet. */
        public final UInt left = UInt(32);
        /** Bytes committed in packets so far. */
        public final UInt sent = UInt(32);
        /** The destination list gave its last segment. */
        public final Bool dstSeen = Bool();
        /** The source stream gave its last (or error) beat. */
        public final Bool dataSeen = Bool();
        public final UInt failStatus = UInt(CompletionStatus.BITS);
        /**
         * The failed transfer is a GET answer whose requester must learn of the failure: its FAIL entry carries
         * the header-only failure packet (Address = the packet's, where the failed packet would have started).
         */
        public final Bool failPkt = Bool();
    }

    /** The packet being filled and what is left of its destination segment. */
    static final class Pkt extends Bundle {
        public final UInt segAddr = UInt(Chpp.ADDRESS_BITS);
        public final UInt segLeft = UInt(32);
        public final UInt addr = UInt(Chpp.ADDRESS_BITS);
        public final UInt len = UInt(HeaderLayout.HEADER.LENGTH.width());
        public final UInt left = UInt(HeaderLayout.HEADER.LENGTH.width());
        public final Bool last = Bool();
    }

    private final int mtu;
    private final Fsm<State> fsm = new Fsm<>(State.class);
    private final Xfer xfer = regInit(new Xfer(), 0);
    private final Pkt pkt = regInit(new Pkt(), 0);

    public Packer(SendEngineParams sp) {
        params = sp;
        mtu = sp.mtu();
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

        Queue<Meta> meta = instance("meta", new Queue<>(Meta::new, META_DEPTH));
        Mem<UInt> payload = mem(bufferBeats, UInt(PacketBeat.DATA_BITS)).named("payload");
        Xfer x = xfer;
        Pkt p = pkt;
        Bool answerFails = x.resp.andNot(x.isNap);
        // source bytes taken but not yet placed in a packet (at most 15), byte 0 in bits 7:0
        UInt hold = regInit(UInt(PacketBeat.DATA_BITS), 0).named("hold");
        UInt holdN = regInit(UInt(5), 0).named("holdN");
        // payload ring: written at wr, the packet being filled started at pktStart, the sender reads at rd
        UInt wr = regInit(UInt(ab + 1), 0).named("wr");
        UInt pktStart = regInit(UInt(ab + 1), 0).named("pktStart");
        UInt rd = regInit(UInt(ab + 1), 0).named("rd");
        UInt used = wr.sub(rd);
        bufferedBeats.assign(used);

        Bool sIdle = fsm.is(State.IDLE);
        Bool sSeg = fsm.is(State.SEG);
        Bool sFill = fsm.is(State.FILL);
        Bool sFail = fsm.is(State.FAIL);
        Bool sEnd = fsm.is(State.END);

        // ---- the source stream: NAP immediate data or the data stages' beats, as one byte stream
        Bool inReady = wireDefault(Bool(), 0).named("inReady");
        napData.ready.assign(inReady.and(x.isImm));
        data.ready.assign(inReady.andNot(x.isImm));
        Bool inValid = mux(x.isImm, napData.valid, data.valid);
        Bool inFire = inValid.and(inReady);
        UInt inData = mux(x.isImm, napData.bits.data, data.bits.data);
        UInt dBytes = mux(data.bits.bytes.gt(PacketBeat.DATA_BYTES), lit(PacketBeat.DATA_BYTES, 5), data.bits.bytes);
        UInt inBytes = mux(x.isImm, lit(PacketBeat.DATA_BYTES, 5), dBytes);
        Bool inLast = mux(x.isImm, napData.bits.last, data.bits.last);
        Bool inErr = x.isImm.not().and(data.bits.status.ne(CompletionStatus.OK.code()));

        // ---- the byte shifter: the next payload beat is w bytes from hold, topped up from the input beat
        UInt w = mux(p.left.gt(PacketBeat.DATA_BYTES), lit(PacketBeat.DATA_BYTES, 5), p.left.trunc(5));
        Bool zeroPkt = p.left.eq(0);
        Bool needIn = holdN.lt(w);
        Bool lastOfPkt = p.left.le(PacketBeat.DATA_BYTES);
        UInt inMasked = keepBytes(inData, inBytes);
        UInt shifted = inMasked.shl(cat(holdN.bits(3, 0), lit(0, 3))).pad(2 * PacketBeat.DATA_BITS);
        UInt combined = hold.pad(2 * PacketBeat.DATA_BITS).or(mux(needIn, shifted, lit(0, 2 * PacketBeat.DATA_BITS)));
        UInt avail = holdN.pad(6).add(mux(needIn, inBytes.pad(6), lit(0, 6)));
        Bool enough = avail.ge(w.pad(6));
        UInt rest = combined.shr(cat(w, lit(0, 3))).bits(PacketBeat.DATA_BITS - 1, 0);
        Bool canWrite = used.lt(bufferBeats).and(lastOfPkt.not().or(meta.enq.ready));
        Bool doWrite = sFill.and(zeroPkt.not()).and(canWrite).and(mux(needIn, inFire.andNot(inErr).and(enough), TRUE()));
        Bool commit = sFill.and(zeroPkt.and(meta.enq.ready).or(doWrite.and(lastOfPkt)));
        Bool dataSeenNext = x.dataSeen.or(inFire.and(inLast.or(inErr)));

        enqueueMeta(sp, meta.enq, commit.or(sFail), sFail);

        // ---- control and destination segments through small flow queues: the transfer's start can then overlap the
        // previous transfer's last payload beat without a combinational path from one input stream to another's ready
        Queue<SendControl> controlIn = instance("controlIn", new Queue<>(SendControl::new, Queue.depth(2).flow()));
        Queue<SegmentBeat> dstIn = instance("dstIn", new Queue<>(SegmentBeat::new, Queue.depth(2).flow()));
        controlIn.enq.connect(control);
        dstIn.enq.connect(dst);
        Decoupled<SegmentBeat> seg = dstIn.deq;
        SendControl c = controlIn.deq.bits;
        Bool cNap = c.kind.eq(DescKind.NAP_IMMEDIATE.code()).or(c.kind.eq(DescKind.NAP_INDIRECT.code()));
        Bool cPut = c.kind.eq(DescKind.PUT.code()).or(c.kind.eq(DescKind.CHAIN.code()));
        Bool cBad = cNap.or(cPut).not().or(cNap.and(c.length.gt(Chpp.MAX_NAP))).or(cPut.and(c.length.eq(0)));
        Bool dstReady = wireDefault(Bool(), 0).named("dstReady");
        seg.ready.assign(dstReady);
        Bool malformedEvent = wireDefault(Bool(), 0).named("malformedEvent");
        // a transfer ends cleanly when its last packet is committed and both its streams have given their last beat
        Bool endsClean = commit.and(p.last).and(x.dstSeen).and(dataSeenNext);
        Bool startNow = controlIn.deq.valid.and(sIdle.or(endsClean));
        controlIn.deq.ready.assign(sIdle.or(endsClean));
        // the first segment of a PUT or chain is taken with its control word
        Bool takeFirstSeg = startNow.and(cPut).andNot(cBad).and(c.dstCount.ne(0));

        // ---- the next destination segment
        when(sSeg, () -> {
            dstReady.assign(x.dstSeen.not());
            when(x.dstSeen, () -> {
                // the destination list ended before the transfer's bytes did: the failure packet names the end of
                // what was sent
                malformedEvent.assign(TRUE());
                x.failStatus.assign(CompletionStatus.PCIE_ERROR.code());
                x.failPkt.assign(answerFails);
                p.addr.assign(p.segAddr);
                fsm.goTo(State.FAIL);
            }).elsewhen(seg.fire(), () -> {
                x.dstSeen.assign(seg.bits.last);
                takeSegment(seg.bits, x.left);
            });
        });

        // ---- filling a packet's payload, one beat per cycle
        when(sFill, () -> {
            inReady.assign(needIn.andNot(x.dataSeen).and(canWrite).andNot(zeroPkt));
            when(inFire, () -> x.dataSeen.assign(dataSeenNext));
            when(zeroPkt.not().and(needIn).and(x.dataSeen), () -> {
                // the source stream ended before the transfer's bytes did
                malformedEvent.assign(TRUE());
                x.failStatus.assign(CompletionStatus.PCIE_ERROR.code());
                x.failPkt.assign(answerFails);
                fsm.goTo(State.FAIL);
            }).elsewhen(inFire.and(inErr), () -> {
                x.failStatus.assign(data.bits.status);
                x.failPkt.assign(answerFails);
                fsm.goTo(State.FAIL);
            }).elsewhen(inFire.and(enough.not()), () -> {
                hold.assign(combined.bits(PacketBeat.DATA_BITS - 1, 0));
                holdN.assign(avail.trunc(5));
            });
            when(doWrite, () -> {
                payload.write(wr.bits(ab - 1, 0), LayoutBits.byteReverse(keepBytes(combined.bits(PacketBeat.DATA_BITS - 1, 0), w)));
                wr.assign(wr.add(1));
                hold.assign(rest);
                holdN.assign(avail.sub(w.pad(6)).trunc(5));
                p.left.assign(p.left.sub(w.pad(p.left.width())));
            });
            when(commit, () -> {
                pktStart.assign(mux(zeroPkt, wr, wr.add(1)));
                x.sent.assign(x.sent.add(p.len.pad(32)));
                when(p.last, () -> {
                    malformedEvent.assign(endsClean.not());
                    when(endsClean, () -> fsm.goTo(State.IDLE)).otherwise(() -> fsm.goTo(State.END));
                }).elsewhen(p.segLeft.eq(0), () -> fsm.goTo(State.SEG))
                        .otherwise(() -> startPacket(p.segAddr, p.segLeft, x.left));
            });
        });

        // ---- the next transfer starts: from idle, or in the cycle the previous one ends cleanly (after the FILL
        // block, so its assignments win)
        when(sIdle.or(endsClean), () -> dstReady.assign(takeFirstSeg));
        when(startNow, () -> {
            start(c, cNap);
            hold.assign(0);
            holdN.assign(0);
            when(cBad, () -> {
                malformedEvent.assign(TRUE());
                x.failStatus.assign(CompletionStatus.BAD_DESCRIPTOR.code());
                fsm.goTo(State.FAIL);
            }).elsewhen(cNap, () -> {
                p.addr.assign(0);
                p.len.assign(c.length.trunc(p.len.width()));
                p.left.assign(c.length.trunc(p.left.width()));
                p.last.assign(TRUE());
                x.left.assign(0);
                fsm.goTo(State.FILL);
            }).elsewhen(seg.fire(), () -> {
                x.dstSeen.assign(seg.bits.last);
                takeSegment(seg.bits, c.length);
            }).otherwise(() -> fsm.goTo(State.SEG));
        });

        // ---- a failed transfer: drop the partial packet, queue its event behind the packets already committed
        when(sFail.and(meta.enq.ready), () -> {
            wr.assign(pktStart);
            hold.assign(0);
            holdN.assign(0);
            fsm.goTo(State.END);
        });

        // ---- the rest of the transfer's segments and source beats, dropped
        when(sEnd, () -> {
            dstReady.assign(x.dstSeen.not());
            inReady.assign(x.dataSeen.not());
            when(seg.fire().and(seg.bits.last), () -> x.dstSeen.assign(TRUE()));
            when(inFire, () -> x.dataSeen.assign(dataSeenNext));
            when(x.dstSeen.and(x.dataSeen), () -> fsm.goTo(State.IDLE));
        });

        Bool failed = sFail.and(meta.enq.ready);
        transfers.assign(Counters.count(failed.or(commit.and(p.last)), "transferCount"));
        errors.assign(Counters.count(failed, "errorCount"));
        failedAnswers.assign(Counters.count(failed.and(x.failPkt), "failedAnswerCount"));
        malformed.assign(Counters.count(malformedEvent, "malformedCount"));

        send(meta.deq, payload, rd, ab);
    }

    /**
     * The transfer's registers from its control word {@code c} (the state and the packet registers are the
     * caller's, by the word's kind).
     */
    private void start(SendControl c, Bool cNap) {
        Xfer x = xfer;
        x.kind.assign(c.kind);
        x.fn.assign(c.function);
        x.qp.assign(c.qp);
        x.sce.assign(c.sce);
        x.rce.assign(c.rce);
        x.resp.assign(c.resp);
        x.dstId.assign(c.dstId);
        x.qpMagic.assign(c.qpMagic);
        x.cookie.assign(c.cookie);
        Bool imm = c.kind.eq(DescKind.NAP_IMMEDIATE.code());
        x.isImm.assign(imm);
        x.isNap.assign(cNap);
        x.sent.assign(0);
        x.dstSeen.assign(c.dstCount.eq(0));
        // data comes on napData for a NAP immediate with bytes, on data when there are source segments
        x.dataSeen.assign(mux(imm, c.length.eq(0), c.srcCount.eq(0)));
        x.left.assign(c.length);
        // a control word refused at the start names no destination yet: no failure packet (GetAnswer never
        // sends one: it refuses zero-length GETs)
        x.failPkt.assign(FALSE());
    }

    /**
     * The packet descriptor (and/or event) the filling side hands the sender. In FAIL it is the failed GET answer's
     * header-only packet: CE always (the error must reach the requester's software whatever the GET's RCE), LAST,
     * RESP, Length 0.
     */
    private void enqueueMeta(SendEngineParams sp, Decoupled<Meta> enq, Bool valid, Bool sFail) {
        HeaderLayout.Header h = HeaderLayout.HEADER;
        Xfer x = xfer;
        Pkt p = pkt;
        UInt sFlag = mux(sFail, lit(HeaderLayout.S_FLAG_FAILED_ANSWER, h.S_FLAG.width()),
                mux(x.isNap, lit(HeaderLayout.S_FLAG_CE | HeaderLayout.S_FLAG_LAST, h.S_FLAG.width()),
                        cat(x.resp, p.last, p.last.and(x.rce))));
        UInt header = PacketHeaders.header(sp, DATA_TC,
                mux(x.isNap, lit(PktType.NAP.code(), h.PKT_TYPE.width()), lit(PktType.PUT.code(), h.PKT_TYPE.width())),
                sFlag, mux(sFail, lit(0, h.LENGTH.width()), p.len), x.fn, x.qp, x.qpMagic, x.dstId,
                mux(x.isNap, lit(0, h.ADDRESS.width()), p.addr));
        enq.valid.assign(valid);
        enq.bits.header.assign(header);
        enq.bits.beats.assign(mux(sFail, lit(0, enq.bits.beats.width()),
                p.len.add(PacketBeat.DATA_BYTES - 1).shr(4).pad(enq.bits.beats.width())));
        enq.bits.hasPacket.assign(sFail.not().or(x.failPkt));
        enq.bits.hasEvent.assign(sFail.or(p.last.and(x.sce)));
        enq.bits.status.assign(mux(sFail, x.failStatus, lit(CompletionStatus.OK.code(), CompletionStatus.BITS)));
        enq.bits.bytes.assign(mux(sFail, x.sent, x.sent.add(p.len.pad(32))));
        enq.bits.function.assign(x.fn);
        enq.bits.qp.assign(x.qp);
        enq.bits.kind.assign(x.kind);
        enq.bits.cookie.assign(x.cookie);
    }

    /**
     * The sending side: each packet's header from the meta queue, then its payload beats from the buffer (read at
     * {@code rd}); its event goes to the event queue with the packet's last beat.
     */
    private void send(Decoupled<Meta> deq, Mem<UInt> payload, UInt rd, int ab) {
        Queue<SendCompletionEvent> events = instance("events", new Queue<>(SendCompletionEvent::new, EVENT_DEPTH));
        Bool sending = regInit(Bool(), 0).named("sending");
        Counter beatIdx = new Counter(1 << deq.bits.beats.width()).named("beatIdx");
        Meta head = deq.bits;
        Bool finalBeat = mux(sending, beatIdx.value.eq(head.beats.sub(1)), head.beats.eq(0));
        Bool evOk = head.hasEvent.not().or(events.enq.ready);
        out.valid.assign(deq.valid.and(head.hasPacket).and(finalBeat.not().or(evOk)));
        out.bits.data.assign(mux(sending, payload.read(rd.bits(ab - 1, 0)), head.header));
        out.bits.last.assign(finalBeat);
        when(out.fire(), () -> {
            when(sending, () -> {
                rd.assign(rd.add(1));
                beatIdx.inc();
            });
            sending.assign(finalBeat.not());
            when(sending.not(), beatIdx::clear);
        });
        Bool noPacket = deq.valid.and(head.hasPacket.not()).and(evOk);
        Bool finish = out.fire().and(finalBeat).or(noPacket);
        deq.ready.assign(finish);
        events.enq.valid.assign(finish.and(head.hasEvent));
        events.enq.bits.status.assign(head.status);
        events.enq.bits.function.assign(head.function);
        events.enq.bits.qp.assign(head.qp);
        events.enq.bits.kind.assign(head.kind);
        events.enq.bits.cookie.assign(head.cookie);
        events.enq.bits.bytes.assign(head.bytes);
        event.connect(events.deq);
        packets.assign(Counters.count(out.fire().and(finalBeat), "packetCount"));
    }

    /** Takes a destination segment: a 0-byte one is skipped (the next is fetched), otherwise its first packet starts. */
    private void takeSegment(SegmentBeat s, UInt xLeft) {
        xfer.left.assign(xLeft);
        when(s.length.eq(0), () -> fsm.goTo(State.SEG))
                .otherwise(() -> startPacket(s.address.bits(Chpp.ADDRESS_BITS - 1, 0), s.length, xLeft));
    }

    /** Starts a PUT packet at {@code addr}: min(mtu, segment left, transfer left) bytes; LAST if it ends the transfer. */
    private void startPacket(UInt addr, UInt segLen, UInt xLeft) {
        UInt m = mux(segLen.lt(xLeft), segLen, xLeft);
        UInt len = mux(m.gt(mtu), lit(mtu, 32), m);
        UInt len13 = len.trunc(pkt.len.width());
        pkt.addr.assign(addr);
        pkt.len.assign(len13);
        pkt.left.assign(len13);
        pkt.last.assign(len.eq(xLeft));
        pkt.segAddr.assign(addr.add(len.pad(Chpp.ADDRESS_BITS)));
        pkt.segLeft.assign(segLen.sub(len));
        xfer.left.assign(xLeft.sub(len));
        fsm.goTo(State.FILL);
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
