package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.TagRelease;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.log2Up;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The send engine's data-extract stage (paper 4.1, data extract: completions -> data): looks each completion beat's
 * tag up (split at the RCB and MPS, tags interleaved, any order between reads), rotates its bytes with a byte
 * shifter to the reorder-buffer lanes its read reserved, and reports each read's progress and end (last beat, UR/CA,
 * or the allocator's timeout) per read slot; it reports every read's end to the tag allocator, late and stray
 * completions included. docs/chpp-data-stages.md.
 */
public final class DataExtract extends Module {
    public final ChppParams params;
    public final SendEngineParams sendParams;
    public final int bufferBytes;
    /** Reads issued ({@link DataRead#issued}): a read's tag starts naming its slot and buffer place. */
    public final Valid<DataReadIssue> issued;
    /** Completions of this stage's tags, 16-byte beats; always ready. */
    public final Decoupled<DmaCompletion> dmaCpl;
    /** Ends of reads for the allocator: every last or error completion beat. */
    public final Valid<TagRelease> tagRelease;
    /** The allocator's timeouts: that tag's read ends with COMPLETION_TIMEOUT. */
    public final Valid<UInt> tagTimedOut;
    /** Completion bytes, rotated to their buffer lanes, to {@link DataReorder#write}. */
    public final Valid<RingWrite> write;
    /** Per completion beat of a live read: bytes placed, and the read's end and outcome. */
    public final Valid<ReadProgress> progress;
    /** The slot whose read timed out. */
    public final Valid<UInt> timedOutSlot;
    /** Completion beats with UR/CA status (saturating). */
    public final UInt errorCompletions;
    /** Reads of this stage ended by the allocator's timeout (saturating). */
    public final UInt timeouts;
    /** Completion beats of no live read (late after a timeout, or stray), dropped (saturating). */
    public final UInt strayCompletions;

    public DataExtract(ChppParams p, SendEngineParams sp) {
        this(p, sp, DataReorder.defaultBytes(sp));
    }

    public DataExtract(ChppParams p, SendEngineParams sp, int reorderBytes) {
        params = p;
        sendParams = sp;
        int nb = DataReorder.checkBytes(reorderBytes, sp);
        bufferBytes = nb;
        int sb = log2Up(DataReorder.slots(p));
        int pb = log2Up(nb) + 1;
        int nt = p.tags();
        int tb = p.tagBits();
        issued = input(Valid.of(DataReadIssue::new));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        tagRelease = output(Valid.of(TagRelease::new));
        tagTimedOut = input(Valid.of(UInt(tb)));
        write = output(Valid.of(RingWrite::new));
        progress = output(Valid.of(ReadProgress::new));
        timedOutSlot = output(Valid.of(UInt(DataReadIssue.SLOT_BITS)));
        errorCompletions = output(UInt(Counters.BITS));
        timeouts = output(UInt(Counters.BITS));
        strayCompletions = output(UInt(Counters.BITS));

        // per tag: the live read it carries: its slot, where its next byte goes, bytes still expected, excess seen
        List<Bool> tValid = new ArrayList<>();
        List<UInt> tSlot = new ArrayList<>();
        List<UInt> tPos = new ArrayList<>();
        List<UInt> tLeft = new ArrayList<>();
        List<Bool> tOver = new ArrayList<>();
        for (int t = 0; t < nt; t++) {
            tValid.add(regInit(Bool(), 0).named("tagValid" + t));
            tSlot.add(regInit(UInt(sb), 0).named("tagSlot" + t));
            tPos.add(regInit(UInt(pb), 0).named("tagPos" + t));
            tLeft.add(regInit(UInt(13), 0).named("tagLeft" + t));
            tOver.add(regInit(Bool(), 0).named("tagOver" + t));
        }

        dmaCpl.ready.assign(TRUE());
        DmaCompletion c = dmaCpl.bits;
        Bool cplOk = c.status.eq(Pcie.SC);
        Bool tagInRange = nt >= 256 ? TRUE() : c.tag.lt(nt);
        List<Bool> tagOH = new ArrayList<>();
        List<Bool> toOH = new ArrayList<>();
        for (int t = 0; t < nt; t++) {
            tagOH.add(tagInRange.and(c.tag.eq(t)));
            toOH.add(tagTimedOut.valid.and(tagTimedOut.bits.eq(t)));
        }
        Bool toHit = tagTimedOut.valid.and(Mux1H(toOH, tValid));
        // a beat of a read that times out in this very cycle belongs to nobody any more (the allocator lets a last
        // beat win over the timeout, so this is never the read's last beat)
        Bool toSame = tagTimedOut.valid.and(tagTimedOut.bits.pad(Pcie.TAG_BITS).eq(c.tag));
        Bool hit = dmaCpl.fire().and(Mux1H(tagOH, tValid)).andNot(toSame);
        UInt slot = Mux1H(tagOH, tSlot);
        UInt pos = Mux1H(tagOH, tPos);
        UInt left = Mux1H(tagOH, tLeft);
        Bool over0 = Mux1H(tagOH, tOver);
        // bytes beyond what the read asked for are not written (and end the read in error)
        UInt cb = c.bytes.pad(13);
        Bool excess = cb.gt(left);
        UInt n = mux(excess, left, cb).trunc(5);
        Bool put = hit.and(cplOk).and(n.ne(0));
        UInt off = pos.bits(3, 0);
        UInt mask = lit(1, 17).shlTrunc(n).sub(1).trunc(16);
        // the byte shifter: byte k of the beat to lane (off + k) mod 16
        write.valid.assign(put);
        write.bits.row.assign(pos.bits(pb - 2, 4).pad(12));
        write.bits.off.assign(off);
        write.bits.data.assign(cat(c.data, c.data).shlTrunc(cat(off, lit(0, 3))).bits(255, 128));
        write.bits.mask.assign(cat(mask, mask).shlTrunc(off).bits(31, 16));

        Bool ends = hit.and(c.last.or(cplOk.not()));
        Bool bad = cplOk.not().or(over0).or(excess).or(c.last.and(cb.ne(left)));
        progress.valid.assign(hit);
        progress.bits.slot.assign(slot.pad(DataReadIssue.SLOT_BITS));
        progress.bits.bytes.assign(mux(cplOk, n, lit(0, 5)));
        progress.bits.end.assign(ends);
        progress.bits.status.assign(mux(bad, lit(CompletionStatus.PCIE_ERROR.code(), 8), lit(CompletionStatus.OK.code(), 8)));
        tagRelease.valid.assign(dmaCpl.fire().and(c.last.or(cplOk.not())));
        tagRelease.bits.tag.assign(c.tag);
        tagRelease.bits.error.assign(cplOk.not());
        timedOutSlot.valid.assign(toHit);
        timedOutSlot.bits.assign(Mux1H(toOH, tSlot).pad(DataReadIssue.SLOT_BITS));

        Bool newRead = issued.valid.and(issued.bits.marker.not());
        for (int t = 0; t < nt; t++) {
            final int ti = t;
            Bool ending = ends.and(tagOH.get(t)).or(toHit.and(toOH.get(t)));
            when(newRead.and(issued.bits.tag.eq(t)), () -> {
                tValid.get(ti).assign(TRUE());
                tSlot.get(ti).assign(issued.bits.slot.trunc(sb));
                tPos.get(ti).assign(issued.bits.pos.trunc(pb));
                tLeft.get(ti).assign(issued.bits.len);
                tOver.get(ti).assign(FALSE());
            }).elsewhen(ending, () -> tValid.get(ti).assign(FALSE()))
                    .elsewhen(hit.and(tagOH.get(ti)), () -> {
                        tPos.get(ti).assign(tPos.get(ti).add(n.pad(pb)));
                        tLeft.get(ti).assign(tLeft.get(ti).sub(n.pad(13)));
                        when(excess, () -> tOver.get(ti).assign(TRUE()));
                    });
        }
        errorCompletions.assign(Counters.count(dmaCpl.fire().and(cplOk.not()), "errors"));
        timeouts.assign(Counters.count(toHit, "timeoutCount"));
        strayCompletions.assign(Counters.count(dmaCpl.fire().andNot(hit), "stray"));
    }
}
