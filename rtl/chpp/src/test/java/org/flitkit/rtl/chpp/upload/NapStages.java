package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Entries;
import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.TagAllocator;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;
import org.flitkit.rtl.pcie.Pcie;

/**
 * Test top: NAP upload with its buffer management, which takes its tags from the central allocator, as the lead
 * wires them; the NAP writes and the list reads on separate host ports (the lead's PCIe arbiter is not built here).
 */
final class NapStages extends Module {
    final TagAllocator tags;
    final BufferManagement bm;
    final NapUpload nap;
    final Decoupled<PacketBeat> in;
    final Decoupled<DmaRequest> napRq;
    final Decoupled<DmaRequest> listRq;
    final Decoupled<DmaCompletion> listCpl;
    final Decoupled<MmioWrite> mmio;
    final Decoupled<UInt> event;

    NapStages(ChppParams p, BufferParams bp, int maxPayload) {
        tags = instance("tags", new TagAllocator(p));
        bm = instance("bm", new BufferManagement(p, bp));
        nap = instance("nap", new NapUpload(maxPayload));
        in = input(Decoupled.of(PacketBeat::new));
        napRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        listRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        listCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        mmio = input(Decoupled.of(MmioWrite::new));
        event = output(Decoupled.of(UInt(Entries.BITS)));

        nap.in.connect(in);
        nap.buffer.connect(bm.out);
        nap.bufferPending.assign(bm.refillPending);
        napRq.connect(nap.dmaRq);
        event.connect(nap.event);
        bm.tag.connect(tags.alloc);
        tags.release.connect(bm.tagRelease);
        bm.tagTimedOut.connect(tags.timedOut);
        listRq.connect(bm.dmaRq);
        bm.dmaCpl.connect(listCpl);
        bm.mmio.connect(mmio);
    }
}
