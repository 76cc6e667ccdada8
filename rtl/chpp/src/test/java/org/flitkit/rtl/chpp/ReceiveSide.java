package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.rtl.pcie.Pcie;

/**
 * Test top: the receive engine as figure 13 draws it: dispatch -> PUT upload, NAP upload (with buffer management
 * on the central tag allocator) and the GET answer; the completion entries of dispatch, PUT and NAP upload merged
 * into the receive completion ring. Each host-memory stream on its own port (the lead's PCIe arbiter is not built
 * here); one BAR-write stream fanned out to the ring and buffer management.
 */
final class ReceiveSide extends Module {
    final ReceiveDispatch dispatch;
    final PutUpload put;
    final NapUpload nap;
    final GetAnswer get;
    final BufferManagement bm;
    final TagAllocator tags;
    final EventMerge merge;
    final CompletionRing ring;
    final Decoupled<PacketBeat> in;
    final Valid<QpKeyWrite> keyWrite;
    final Decoupled<MmioWrite> mmio;
    final Decoupled<DmaRequest> putRq;
    final Decoupled<DmaRequest> napRq;
    final Decoupled<DmaRequest> ringRq;
    final Decoupled<DmaRequest> listRq;
    final Decoupled<DmaCompletion> listCpl;
    final Decoupled<DescriptorBeat> descriptors;

    ReceiveSide(ChppParams p, BufferParams bp, RingParams rp, int maxPayload) {
        dispatch = instance("dispatch", new ReceiveDispatch());
        put = instance("put", new PutUpload(maxPayload));
        nap = instance("nap", new NapUpload(maxPayload));
        get = instance("get", new GetAnswer());
        bm = instance("bm", new BufferManagement(p, bp));
        tags = instance("tags", new TagAllocator(p));
        merge = instance("merge", new EventMerge(3));
        ring = instance("ring", new CompletionRing(rp));
        in = input(Decoupled.of(PacketBeat::new));
        keyWrite = input(Valid.<QpKeyWrite>of(QpKeyWrite::new));
        mmio = input(Decoupled.of(MmioWrite::new));
        putRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        napRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        ringRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        listRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        listCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        descriptors = output(Decoupled.of(DescriptorBeat::new));

        dispatch.in.connect(in);
        dispatch.keyWrite.connect(keyWrite);
        put.in.connect(dispatch.putOut);
        nap.in.connect(dispatch.napOut);
        get.in.connect(dispatch.getOut);
        descriptors.connect(get.out);
        nap.buffer.connect(bm.out);
        nap.bufferPending.assign(bm.refillPending);
        bm.tag.connect(tags.alloc);
        tags.release.connect(bm.tagRelease);
        bm.tagTimedOut.connect(tags.timedOut);
        listRq.connect(bm.dmaRq);
        bm.dmaCpl.connect(listCpl);
        merge.in.get(0).connect(dispatch.event);
        merge.in.get(1).connect(put.event);
        merge.in.get(2).connect(nap.event);
        ring.in.connect(merge.out);
        putRq.connect(put.dmaRq);
        napRq.connect(nap.dmaRq);
        ringRq.connect(ring.dmaRq);
        // both register blocks take every BAR write they decode and ignore the rest: always ready
        mmio.ready.assign(TRUE());
        for (Decoupled<MmioWrite> m : java.util.List.of(bm.mmio, ring.mmio)) {
            m.valid.assign(mmio.valid);
            m.bits.addr.assign(mmio.bits.addr);
            m.bits.data.assign(mmio.bits.data);
        }
    }
}
