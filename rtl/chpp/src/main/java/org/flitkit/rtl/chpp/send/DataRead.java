package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.TaggedRead;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.log2Up;

import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The send engine's data-read stage (paper 4.1, data read; spec 30-chpp-dma.md, "Tags"): cuts each source segment
 * into PCIe memory reads of at most Max_Read_Request_Size that never cross a Max_Read_Request_Size-aligned
 * boundary (so never 4 KB), one tag each, issued as long as a tag, a read slot and reorder-buffer space for the
 * whole read are free (space is reserved at issue, so every completion has a place, as Corundum does). Each transfer
 * starts on a 16-byte buffer row. A transfer one of whose reads failed gets no more reads: its remaining segments
 * are dropped and a marker ends it. docs/chpp-data-stages.md.
 */
public final class DataRead extends Module {
    public final ChppParams params;
    public final SendEngineParams sendParams;
    public final int bufferBytes;
    /** Source segments ({@link DescriptorExtract#src}); {@code last} ends the transfer. */
    public final Decoupled<SegmentBeat> src;
    /** The allocator's offered tag: taken in the cycle the read request leaves. */
    public final Decoupled<UInt> tag;
    /** PCIe memory reads (one beat each, {@code write} 0). */
    public final Decoupled<DmaRequest> dmaRq;
    /** Every read issued and every marker, in order, to {@link DataExtract} and {@link DataReorder}. */
    public final Valid<DataReadIssue> issued;
    /** {@link DataReorder#head}: slots up to head + slots are free. */
    public final UInt head;
    /** {@link DataReorder#readPtr}: buffer bytes from here to the write position are reserved. */
    public final UInt readPtr;
    /** Sequence number of the transfer being read (to {@link DataReorder#issueSeq}). */
    public final UInt issueSeq;
    /** {@link DataReorder#abort}: a read of the transfer being read failed. */
    public final Bool abort;
    /** Reads issued (saturating). */
    public final UInt readsIssued;
    /** Segments of 0 bytes (the formats forbid them): the transfer fails with BAD_DESCRIPTOR (saturating). */
    public final UInt emptySegments;
    /** Segments dropped unread because their transfer had already failed (saturating). */
    public final UInt droppedSegments;

    public DataRead(ChppParams p, SendEngineParams sp) {
        this(p, sp, DataReorder.defaultBytes(sp));
    }

    public DataRead(ChppParams p, SendEngineParams sp, int reorderBytes) {
        params = p;
        sendParams = sp;
        int nb = DataReorder.checkBytes(reorderBytes, sp);
        bufferBytes = nb;
        int ns = DataReorder.slots(p);
        int sb = log2Up(ns);
        int pb = log2Up(nb) + 1;
        int tb = p.tagBits();
        int mrrs = sp.maxReadRequest();
        int mb = log2Up(mrrs);
        src = input(Decoupled.of(SegmentBeat::new));
        tag = input(Decoupled.of(UInt(tb)));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        issued = output(Valid.of(DataReadIssue::new));
        head = input(UInt(sb + 1));
        readPtr = input(UInt(pb));
        issueSeq = output(UInt(8));
        abort = input(Bool());
        readsIssued = output(UInt(Counters.BITS));
        emptySegments = output(UInt(Counters.BITS));
        droppedSegments = output(UInt(Counters.BITS));

        // the segment being cut: where its next read starts, bytes left
        Bool have = regInit(Bool(), 0).named("have");
        UInt segAddr = regInit(UInt(64), 0).named("segAddr");
        UInt segLeft = regInit(UInt(32), 0).named("segLeft");
        Bool segLast = regInit(Bool(), 0).named("segLast");
        // buffer write position (byte, with wrap bit), next slot, transfer number, and whether it is being abandoned
        UInt wp = regInit(UInt(pb), 0).named("wp");
        Counter tail = new Counter(1 << (sb + 1)).named("tail");
        Counter seq = new Counter(256).named("seq");
        Bool aborting = regInit(Bool(), 0).named("aborting");
        Bool stop = aborting.or(abort);

        src.ready.assign(have.not());
        when(src.fire(), () -> {
            have.assign(TRUE());
            segAddr.assign(src.bits.address);
            segLeft.assign(src.bits.length);
            segLast.assign(src.bits.last);
        });

        // the next read: up to the next Max_Read_Request_Size boundary, at most what is left of the segment
        UInt toBoundary = lit(mrrs, 14).sub(segAddr.bits(mb - 1, 0).pad(14));
        Bool fits = segLeft.le(toBoundary.pad(32));
        UInt chunk = mux(fits, segLeft.trunc(13), toBoundary.trunc(13));
        Bool slotFree = tail.value.sub(head).trunc(sb + 1).lt(ns);
        int w = Math.max(pb, 13) + 1;
        Bool space = wp.sub(readPtr).trunc(pb).pad(w).add(chunk.pad(w)).le(nb);
        Bool nonEmpty = segLeft.ne(0);
        Bool want = have.and(stop.not()).and(nonEmpty).and(slotFree).and(space);
        Bool issue = TaggedRead.issue(dmaRq, tag, want, segAddr, chunk);
        Bool segDone = issue.and(fits);
        Bool endsXfer = segDone.and(segLast);

        // markers: a 0-byte segment fails its transfer (BAD_DESCRIPTOR); an abandoned transfer's last segment ends it
        Bool zeroSeg = have.and(stop.not()).and(nonEmpty.not());
        Bool abortEnd = have.and(stop).and(segLast);
        Bool marker = zeroSeg.or(abortEnd).and(slotFree);
        Bool dropped = have.and(stop).and(segLast.not());
        UInt endWp = mux(issue, wp.pad(w).add(chunk.pad(w)).trunc(pb), wp);
        UInt rounded = cat(endWp.add(15).trunc(pb).bits(pb - 1, 4), lit(0, 4));
        issued.valid.assign(issue.or(marker));
        issued.bits.tag.assign(tag.bits.pad(8));
        issued.bits.slot.assign(tail.value.trunc(sb).pad(DataReadIssue.SLOT_BITS));
        issued.bits.pos.assign(wp.pad(DataReadIssue.POS_BITS));
        issued.bits.len.assign(mux(issue, chunk, lit(0, 13)));
        issued.bits.last.assign(mux(issue, endsXfer, segLast));
        issued.bits.marker.assign(marker);
        issued.bits.status.assign(mux(zeroSeg, lit(CompletionStatus.BAD_DESCRIPTOR.code(), 8), lit(CompletionStatus.OK.code(), 8)));
        issued.bits.seq.assign(seq.value);

        when(issue, () -> {
            segAddr.assign(segAddr.add(chunk.pad(64)));
            segLeft.assign(segLeft.sub(chunk.pad(32)));
            when(fits, () -> have.assign(FALSE()));
        });
        when(marker.or(dropped), () -> have.assign(FALSE()));
        when(issue.or(marker), tail::inc);
        // a transfer's end moves the write position to the next row; its sequence number on
        Bool xferEnd = endsXfer.or(marker.and(segLast));
        when(xferEnd, () -> {
            wp.assign(rounded);
            seq.inc();
        }).elsewhen(issue, () -> wp.assign(endWp));
        when(xferEnd, () -> aborting.assign(FALSE()))
                .elsewhen(abort.or(marker.and(zeroSeg)), () -> aborting.assign(TRUE()));
        issueSeq.assign(seq.value);
        readsIssued.assign(Counters.count(issue, "reads"));
        emptySegments.assign(Counters.count(zeroSeg.and(slotFree), "empty"));
        droppedSegments.assign(Counters.count(dropped.or(abortEnd.and(slotFree)), "droppedCount"));
    }
}
