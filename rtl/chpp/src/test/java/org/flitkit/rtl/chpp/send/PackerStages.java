package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.TagAllocator;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * Test top: the real send-engine front (doorbell front, descriptor read with the central tag allocator, descriptor
 * extract) with the packer behind it: extract's {@code control}, {@code dst} and {@code napData} straight into the
 * packer. The source segments leave on {@code src} and the source data comes back on {@code data}, where the data
 * stages (not built yet) will sit; the test drives that part from host memory.
 */
final class PackerStages extends Module {
    final Valid<FunctionDoorbell> write;
    final Decoupled<DmaRequest> dmaRq;
    final Decoupled<DmaCompletion> dmaCpl;
    final Decoupled<SegmentBeat> src;
    final Decoupled<DataBeat> data;
    final Decoupled<PacketBeat> out;
    final Decoupled<PacketBeat> get;
    final Decoupled<SendCompletionEvent> extractEvent;
    final Decoupled<SendCompletionEvent> packerEvent;
    final Packer packer;

    PackerStages(ChppParams p, SendEngineParams sp) {
        DoorbellFront front = instance("front", new DoorbellFront(p));
        TagAllocator tags = instance("tags", new TagAllocator(p));
        DescriptorRead read = instance("read", new DescriptorRead(p, sp));
        DescriptorExtract ext = instance("extract", new DescriptorExtract(p, sp));
        packer = instance("packer", new Packer(sp));
        write = input(Valid.of(FunctionDoorbell::new));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        src = output(Decoupled.of(SegmentBeat::new));
        data = input(Decoupled.of(DataBeat::new));
        out = output(Decoupled.of(PacketBeat::new));
        get = output(Decoupled.of(PacketBeat::new));
        extractEvent = output(Decoupled.of(SendCompletionEvent::new));
        packerEvent = output(Decoupled.of(SendCompletionEvent::new));

        front.write.connect(write);
        read.doorbell.connect(front.out);
        read.tag.connect(tags.alloc);
        tags.release.connect(read.tagRelease);
        read.tagTimedOut.connect(tags.timedOut);
        dmaRq.connect(read.dmaRq);
        read.dmaCpl.connect(dmaCpl);
        ext.in.connect(read.out);
        packer.control.connect(ext.control);
        packer.dst.connect(ext.dst);
        packer.napData.connect(ext.napData);
        src.connect(ext.src);
        packer.data.connect(data);
        out.connect(packer.out);
        get.connect(ext.get);
        extractEvent.connect(ext.event);
        packerEvent.connect(packer.event);
    }
}
