package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.Entries;

import org.flitkit.rtl.chpp.PacketBeat;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.log2Up;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.Chpp;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Fsm;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.rtl.pcie.DmaRequest;

/**
 * The data path shared by {@link PutUpload} and {@link NapUpload}, built inside the calling module: packets in,
 * payload realigned through a 32-byte window into posted writes of at most Max_Payload_Size cut at its address
 * boundaries (so never across 4 KB), then the packet's receive completion. docs/chpp-upload.md, "How it works".
 */
final class UploadPath {
    private static final HeaderLayout.Header H = HeaderLayout.HEADER;
    /**
     * Input side states: waiting for a header, taking payload beats, zeros for a packet that ended early, dropping the
     * rest of a refused or over-long packet.
     */
    private enum In { IDLE, PAYLOAD, FILL, DRAIN }

    final Bool packetDone;
    final Bool writeDone;
    final Bool framingError;
    final Bool badLength;
    final Bool dropped;
    final Bool eventFire;
    /** A failed GET answer's header-only packet taken (PUT only). */
    final Bool failedAnswerDone;

    /**
     * @param nap           NAP upload (buffer from {@code buffer}, event always, Length up to 2048, 0 allowed) or PUT
     * @param buffer        NAP only: free receive buffers (taken with the header), else null
     * @param bufferPending NAP only: a buffer may still come (wait rather than drop), else null
     */
    UploadPath(boolean nap, int maxPayload, Decoupled<PacketBeat> in, Decoupled<DmaRequest> dmaRq, Decoupled<UInt> event,
               Decoupled<UInt> buffer, Bool bufferPending) {
        UInt h = in.bits.data;
        UInt len = LayoutBits.get(h, H.LENGTH);
        UInt sflag = LayoutBits.get(h, H.S_FLAG);
        Bool ce = sflag.bit(Integer.numberOfTrailingZeros(HeaderLayout.S_FLAG_CE));
        Bool resp = sflag.bit(Integer.numberOfTrailingZeros(HeaderLayout.S_FLAG_RESP));
        Bool last = in.bits.last;

        // ---- input side: header, then payload bytes into the window
        Fsm<In> inState = new Fsm<>(In.class).named("inState");
        UInt inLeft = regInit(UInt(Chpp.LENGTH_BITS), 0).named("inLeft"); // payload bytes still due
        UInt window = regInit(UInt(256), 0).named("window"); // PCIe byte order: byte j in bits 8j+7..8j
        UInt have = regInit(UInt(6), 0).named("have"); // bytes in the window, 0..32
        Queue<UploadHeader> hq = instance("headers", new Queue<>(UploadHeader::new, 2));

        Bool idle = inState.is(In.IDLE);
        // PUT Length 0 is legal exactly as the end of a failed GET answer: S_Flag CE+LAST+RESP, nothing to write
        Bool failedAnswer = nap ? FALSE() : len.eq(0).and(sflag.eq(HeaderLayout.S_FLAG_FAILED_ANSWER));
        Bool lenBad = nap ? len.gt(Chpp.MAX_NAP) : len.eq(0).andNot(failedAnswer).or(len.gt(Chpp.MAX_PAYLOAD));
        Bool needBuf = nap ? len.ne(0).andNot(lenBad) : FALSE();
        Bool hasBuf = nap ? buffer.valid : FALSE();
        Bool noBuf = nap ? needBuf.andNot(hasBuf).andNot(bufferPending) : FALSE();
        // a NAP that needs a buffer waits while one may still come; without one it is dropped (never a hang)
        Bool decided = needBuf.not().or(hasBuf).or(noBuf);
        Bool hdrGo = idle.and(in.valid).andNot(lenBad).and(decided);
        hq.enq.valid.assign(hdrGo);
        UploadHeader e = hq.enq.bits;
        e.addr.assign(nap ? mux(hasBuf.and(needBuf), buffer.bits, lit(0, 64)) : LayoutBits.get(h, H.ADDRESS).pad(64));
        e.length.assign(len);
        e.ce.assign(nap ? TRUE() : ce);
        e.resp.assign(nap ? FALSE() : resp);
        e.srcId.assign(LayoutBits.get(h, H.SRC_ID));
        e.dstId.assign(LayoutBits.get(h, H.DST_ID));
        e.noBuffer.assign(noBuf);
        e.getFailed.assign(failedAnswer);
        if (nap) {
            buffer.ready.assign(hdrGo.and(needBuf).and(hq.enq.ready));
        }

        Bool roomIn = have.le(16);
        UInt inBytes = mux(inLeft.lt(16), inLeft.trunc(5), lit(16, 5));
        Bool finalBeat = inLeft.le(16);
        Bool inReady = mux(idle, lenBad.or(decided.and(hq.enq.ready)),
                mux(inState.is(In.PAYLOAD), roomIn, inState.is(In.DRAIN)));
        in.ready.assign(inReady);
        Bool fire = in.valid.and(inReady);
        Bool hdrFire = fire.and(idle);
        Bool payFire = fire.and(inState.is(In.PAYLOAD));
        Bool fillBeat = inState.is(In.FILL).and(roomIn);
        Bool append = payFire.or(fillBeat);
        // bytes of a beat beyond the payload are not trusted to be zero: masked
        UInt inData = mux(inState.is(In.PAYLOAD), LayoutBits.byteReverse(in.bits.data).and(firstBytes(inBytes)), lit(0, 128));

        Bool frameErr = wireDefault(Bool(), 0);
        when(hdrFire, () -> {
            when(lenBad.or(noBuf).or(len.eq(0)), () -> {
                when(last, () -> inState.goTo(In.IDLE)).otherwise(() -> inState.goTo(In.DRAIN));
                // a header-only packet is whole; a refused one is drained whatever it carries
                frameErr.assign(len.eq(0).andNot(lenBad).andNot(last));
            }).otherwise(() -> {
                inLeft.assign(len);
                when(last, () -> inState.goTo(In.FILL)).otherwise(() -> inState.goTo(In.PAYLOAD));
                frameErr.assign(last);
            });
        });
        when(payFire, () -> {
            inLeft.assign(inLeft.sub(inBytes.pad(Chpp.LENGTH_BITS)));
            when(finalBeat, () -> {
                when(last, () -> inState.goTo(In.IDLE)).otherwise(() -> inState.goTo(In.DRAIN));
                frameErr.assign(last.not());
            }).elsewhen(last, () -> {
                // the packet ended early: the rest of its Length is written as zeros, so every write stays whole
                inState.goTo(In.FILL);
                frameErr.assign(TRUE());
            });
        });
        when(fillBeat, () -> {
            inLeft.assign(inLeft.sub(inBytes.pad(Chpp.LENGTH_BITS)));
            when(finalBeat, () -> inState.goTo(In.IDLE));
        });
        when(fire.and(inState.is(In.DRAIN)).and(last), () -> inState.goTo(In.IDLE));

        // ---- write side: the head packet's writes, cut at Max_Payload_Size address boundaries
        UploadHeader head = hq.deq.bits;
        Bool hv = hq.deq.valid;
        UInt done = regInit(UInt(Chpp.LENGTH_BITS), 0).named("done"); // bytes of the head packet in finished writes
        Counter beat = new Counter(256).named("beat"); // beat of the current write
        Bool evValid = regInit(Bool(), 0).named("evValid");
        UInt evEntry = regInit(UInt(Entries.BITS), 0).named("evEntry");
        int mb = log2Up(maxPayload);
        UInt wAddr = head.addr.add(done.pad(64));
        UInt toBoundary = lit(maxPayload, 14).sub(wAddr.bits(mb - 1, 0).pad(14));
        UInt rem = head.length.sub(done).pad(14);
        Bool lastWrite = rem.le(toBoundary);
        UInt wLen = mux(lastWrite, rem, toBoundary).trunc(Chpp.LENGTH_BITS);
        UInt left = wLen.sub(cat(beat.value, lit(0, 4)).pad(Chpp.LENGTH_BITS));
        Bool lastBeat = left.le(16);
        UInt take = mux(lastBeat, left.trunc(5), lit(16, 5));
        Bool writes = head.noBuffer.not().and(head.length.ne(0));
        dmaRq.valid.assign(hv.and(writes).andNot(evValid).and(have.ge(take.pad(6))));
        dmaRq.bits.write.assign(TRUE());
        dmaRq.bits.tag.assign(0);
        dmaRq.bits.addr.assign(wAddr);
        dmaRq.bits.len.assign(wLen);
        // bytes past the write's end belong to the next write: zero, so an offered beat never changes
        dmaRq.bits.data.assign(window.bits(127, 0).and(firstBytes(take)));
        dmaRq.bits.last.assign(lastBeat);
        Bool wFire = dmaRq.fire();
        Bool pktEnd = wFire.and(lastBeat).and(lastWrite);
        Bool noWrite = hv.andNot(writes).andNot(evValid);
        Bool pop = pktEnd.or(noWrite);
        hq.deq.ready.assign(pop);
        when(wFire, () -> {
            when(lastBeat, () -> {
                beat.clear();
                done.assign(mux(lastWrite, lit(0, Chpp.LENGTH_BITS), done.add(wLen)));
            }).otherwise(beat::inc);
        });

        // ---- the window: bytes leave from the bottom with each write beat, arrive on top with each payload beat
        UInt used = mux(wFire, take, lit(0, 5));
        UInt shifted = window.shr(cat(used, lit(0, 3)));
        UInt haveAfter = have.sub(used.pad(6));
        UInt placed = inData.pad(256).shlTrunc(cat(haveAfter, lit(0, 3)));
        window.assign(mux(append, shifted.or(placed), shifted));
        have.assign(haveAfter.add(mux(append, inBytes.pad(6), lit(0, 6))));

        // ---- the completion: after the packet's last write request was taken
        Bool post = pop.and(head.ce);
        UInt status = mux(head.noBuffer, lit(CompletionStatus.NO_RECEIVE_BUFFER.code(), CompletionStatus.BITS),
                mux(head.getFailed, lit(CompletionStatus.GET_FAILED.code(), CompletionStatus.BITS), lit(CompletionStatus.OK.code(), CompletionStatus.BITS)));
        UInt pktType = lit((nap ? PktType.NAP : PktType.PUT).code(), PktType.BITS);
        when(post, () -> {
            evValid.assign(TRUE());
            evEntry.assign(Entries.receive(head.addr, pktType, head.resp, status, head.srcId, head.dstId, head.length));
        }).elsewhen(event.fire(), () -> evValid.assign(FALSE()));
        event.valid.assign(evValid);
        event.bits.assign(evEntry);

        packetDone = pop.andNot(head.noBuffer);
        writeDone = wFire.and(lastBeat);
        framingError = frameErr;
        badLength = hdrFire.and(lenBad);
        dropped = pop.and(head.noBuffer);
        eventFire = event.fire();
        failedAnswerDone = pop.and(head.getFailed);
    }

    /** A beat mask keeping bytes 0..n-1 (PCIe byte order: byte i in bits 8i+7..8i). */
    private static UInt firstBytes(UInt n) {
        List<Bits> keep = new ArrayList<>();
        for (int i = PacketBeat.DATA_BYTES - 1; i >= 0; i--) {
            keep.add(fill(8, n.gt(i)));
        }
        return cat(keep);
    }
}
