package org.flitkit.rtl.chpp.receive;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.TagAllocator;
import org.flitkit.rtl.chpp.send.DescriptorBeat;
import org.flitkit.rtl.chpp.upload.BufferParams;
import org.flitkit.rtl.chpp.upload.NapUpload;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.rtl.pcie.Pcie;

/**
 * Test top: the real {@link ReceiveEngine} (figure 13: dispatch, PUT and NAP upload with buffer management, the GET
 * answer, the completion entries merged) with its own tag allocator and one receive ring for every QP, each
 * host-memory stream on its own port (no PCIe arbiter), one BAR-write stream fanned out to the engine and the ring.
 */
public final class ReceiveSide extends Module {
    final ReceiveEngine engine;
    final ReceiveDispatch dispatch;
    final NapUpload nap;
    final TagAllocator tags;
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

    public ReceiveSide(ChppParams p, BufferParams bp, CompletionRingParams rp, int maxPayload) {
        engine = instance("engine", new ReceiveEngine(p, bp, maxPayload));
        dispatch = engine.dispatch;
        nap = engine.nap;
        tags = instance("tags", new TagAllocator(p));
        ring = instance("ring", new CompletionRing(rp));
        in = input(Decoupled.of(PacketBeat::new));
        keyWrite = input(Valid.of(QpKeyWrite::new));
        mmio = input(Decoupled.of(MmioWrite::new));
        putRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        napRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        ringRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        listRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        listCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        descriptors = output(Decoupled.of(DescriptorBeat::new));

        engine.packets.connect(in);
        // GETs come on the packet stream here (as from the crossbar); the separate GET input stays idle
        engine.gets.valid.assign(FALSE());
        engine.gets.bits.data.assign(lit(0, PacketBeat.DATA_BITS));
        engine.gets.bits.last.assign(FALSE());
        engine.keyWrite.connect(keyWrite);
        descriptors.connect(engine.answer);
        engine.bufTag.connect(tags.alloc);
        tags.release.connect(engine.bufTagRelease);
        engine.bufTagTimedOut.connect(tags.timedOut);
        listRq.connect(engine.bufRq);
        engine.bufCpl.connect(listCpl);
        // one ring for every QP: the test reads a single receive ring
        ring.in.connect(engine.event);
        putRq.connect(engine.putRq);
        napRq.connect(engine.napRq);
        ringRq.connect(ring.dmaRq);
        // both register blocks take every BAR write they decode and ignore the rest: always ready
        mmio.ready.assign(TRUE());
        for (Decoupled<MmioWrite> m : java.util.List.of(engine.mmio, ring.mmio)) {
            m.valid.assign(mmio.valid);
            m.bits.assign(mmio.bits);
        }
    }
}
