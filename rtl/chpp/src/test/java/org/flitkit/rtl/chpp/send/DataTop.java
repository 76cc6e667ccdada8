package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.TagAllocator;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * Test top: the data stages on the real central {@link TagAllocator}, as the lead wires them (without the PCIe
 * arbiter, so every completion is this stage's), with the segment input, the PCIe ports and the data output
 * brought out.
 */
final class DataTop extends Module {
    final DataStages data;
    final TagAllocator tags;
    final Decoupled<SegmentBeat> src;
    final Decoupled<DmaRequest> dmaRq;
    final Decoupled<DmaCompletion> dmaCpl;
    final Decoupled<DataBeat> out;
    final UInt freeTags;

    DataTop(ChppParams p, SendEngineParams sp, int reorderBytes) {
        tags = instance("tags", new TagAllocator(p));
        data = instance("data", new DataStages(p, sp, reorderBytes));
        src = input(Decoupled.of(SegmentBeat::new));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        out = output(Decoupled.of(DataBeat::new));
        freeTags = output(UInt(tags.freeCount.width()));
        data.src.connect(src);
        data.tag.connect(tags.alloc);
        tags.release.connect(data.tagRelease);
        data.tagTimedOut.connect(tags.timedOut);
        dmaRq.connect(data.dmaRq);
        data.dmaCpl.connect(dmaCpl);
        out.connect(data.out);
        freeTags.assign(tags.freeCount);
    }
}
