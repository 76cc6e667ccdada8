package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.TagAllocator;
import org.flitkit.rtl.chpp.TagRelease;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The send engine's data stages after descriptor extract (paper 4.1: data read -> data extract -> data reorder):
 * source segments in, PCIe reads out on tags from the central allocator, completions in, each transfer's bytes out
 * in order as {@link DataBeat}s for the packer (or, if a read failed, the bytes so far and one error beat).
 * docs/chpp-data-stages.md.
 */
public final class DataStages extends Module {
    public final ChppParams params;
    public final SendEngineParams sendParams;
    /** Reorder-buffer bytes. */
    public final int bufferBytes;
    /** Source segments ({@link DescriptorExtract#src}). */
    public final Decoupled<SegmentBeat> src;
    /** The allocator's offered tag ({@link TagAllocator#alloc}). */
    public final Decoupled<UInt> tag;
    /** Ends of reads ({@link TagAllocator#release}). */
    public final Valid<TagRelease> tagRelease;
    /** The allocator's timeouts ({@link TagAllocator#timedOut}). */
    public final Valid<UInt> tagTimedOut;
    /** PCIe memory reads. */
    public final Decoupled<DmaRequest> dmaRq;
    /** Their completions (only this stage's tags); always ready. */
    public final Decoupled<DmaCompletion> dmaCpl;
    /** Transfers' bytes to the packer. */
    public final Decoupled<DataBeat> out;
    /** Reads issued, UR/CA completion beats, timeouts, stray completion beats (all saturating). */
    public final UInt readsIssued;
    public final UInt errorCompletions;
    public final UInt timeouts;
    public final UInt strayCompletions;
    /** Zero-length source segments (transfer failed BAD_DESCRIPTOR), saturating. */
    public final UInt emptySegments;
    /** Transfers handed on whole / ended by an error beat (saturating). */
    public final UInt transfersDone;
    public final UInt transfersFailed;

    public DataStages(ChppParams p, SendEngineParams sp) {
        this(p, sp, DataReorder.defaultBytes(sp));
    }

    public DataStages(ChppParams p, SendEngineParams sp, int reorderBytes) {
        params = p;
        sendParams = sp;
        bufferBytes = DataReorder.checkBytes(reorderBytes, sp);
        src = input(Decoupled.of(SegmentBeat::new));
        tag = input(Decoupled.of(UInt(p.tagBits())));
        tagRelease = output(Valid.of(TagRelease::new));
        tagTimedOut = input(Valid.of(UInt(p.tagBits())));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        out = output(Decoupled.of(DataBeat::new));
        readsIssued = output(UInt(Counters.BITS));
        errorCompletions = output(UInt(Counters.BITS));
        timeouts = output(UInt(Counters.BITS));
        strayCompletions = output(UInt(Counters.BITS));
        emptySegments = output(UInt(Counters.BITS));
        transfersDone = output(UInt(Counters.BITS));
        transfersFailed = output(UInt(Counters.BITS));

        DataRead read = instance("read", new DataRead(p, sp, reorderBytes));
        DataExtract extract = instance("extract", new DataExtract(p, sp, reorderBytes));
        DataReorder reorder = instance("reorder", new DataReorder(p, sp, reorderBytes));
        read.src.connect(src);
        read.tag.connect(tag);
        dmaRq.connect(read.dmaRq);
        read.head.assign(reorder.head);
        read.readPtr.assign(reorder.readPtr);
        read.abort.assign(reorder.abort);
        reorder.issueSeq.assign(read.issueSeq);
        extract.issued.connect(read.issued);
        reorder.issued.connect(read.issued);
        extract.dmaCpl.connect(dmaCpl);
        tagRelease.connect(extract.tagRelease);
        extract.tagTimedOut.connect(tagTimedOut);
        reorder.write.connect(extract.write);
        reorder.progress.connect(extract.progress);
        reorder.timedOutSlot.connect(extract.timedOutSlot);
        out.connect(reorder.out);
        readsIssued.assign(read.readsIssued);
        errorCompletions.assign(extract.errorCompletions);
        timeouts.assign(extract.timeouts);
        strayCompletions.assign(extract.strayCompletions);
        emptySegments.assign(read.emptySegments);
        transfersDone.assign(reorder.transfersDone);
        transfersFailed.assign(reorder.transfersFailed);
    }
}
