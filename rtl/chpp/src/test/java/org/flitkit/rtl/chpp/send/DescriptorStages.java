package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.PacketBeat;
import org.flitkit.rtl.chpp.TagAllocator;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * Test top: the real send-engine front as the lead wires it: doorbell front -> descriptor read (tags from the
 * central allocator) -> descriptor extract, with the PCIe ports and every output stream brought out.
 */
final class DescriptorStages extends Module {
    final Valid<FunctionDoorbell> write;
    final Decoupled<DmaRequest> dmaRq;
    final Decoupled<DmaCompletion> dmaCpl;
    final Decoupled<SendControl> control;
    final Decoupled<SegmentBeat> src;
    final Decoupled<SegmentBeat> dst;
    final Decoupled<PacketBeat> napData;
    final Decoupled<PacketBeat> get;
    final Decoupled<SendCompletionEvent> event;
    final UInt freeTags;
    final UInt busySlots;
    final UInt refusedDoorbells;
    final UInt strayCompletions;
    final UInt refused;
    final UInt readErrors;

    DescriptorStages(ChppParams p, SendEngineParams sp) {
        DoorbellFront front = instance("front", new DoorbellFront(p));
        TagAllocator tags = instance("tags", new TagAllocator(p));
        DescriptorRead read = instance("read", new DescriptorRead(p, sp));
        DescriptorExtract ext = instance("extract", new DescriptorExtract(p, sp));
        write = input(Valid.of(FunctionDoorbell::new));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        control = output(Decoupled.of(SendControl::new));
        src = output(Decoupled.of(SegmentBeat::new));
        dst = output(Decoupled.of(SegmentBeat::new));
        napData = output(Decoupled.of(PacketBeat::new));
        get = output(Decoupled.of(PacketBeat::new));
        event = output(Decoupled.of(SendCompletionEvent::new));
        freeTags = output(UInt(tags.freeCount.width()));
        busySlots = output(UInt(sp.slots()));
        refusedDoorbells = output(UInt(32));
        strayCompletions = output(UInt(32));
        refused = output(UInt(32));
        readErrors = output(UInt(32));

        front.write.connect(write);
        read.doorbell.connect(front.out);
        read.tag.connect(tags.alloc);
        tags.release.connect(read.tagRelease);
        read.tagTimedOut.connect(tags.timedOut);
        dmaRq.connect(read.dmaRq);
        read.dmaCpl.connect(dmaCpl);
        ext.in.connect(read.out);
        control.connect(ext.control);
        src.connect(ext.src);
        dst.connect(ext.dst);
        napData.connect(ext.napData);
        get.connect(ext.get);
        event.connect(ext.event);
        freeTags.assign(tags.freeCount);
        busySlots.assign(read.busySlots);
        refusedDoorbells.assign(read.refusedDoorbells);
        strayCompletions.assign(read.strayCompletions);
        refused.assign(ext.refused);
        readErrors.assign(ext.readErrors);
    }
}
