package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.PopCount;
import static org.flitkit.hdl.lib.Bitwise.fromBools;
import static org.flitkit.hdl.lib.Bitwise.log2Up;
import static org.flitkit.hdl.lib.OneHot.OHToUInt;
import static org.flitkit.hdl.lib.OneHot.PriorityEncoder;
import static org.flitkit.hdl.lib.OneHot.PriorityEncoderOH;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * The central allocator of PCIe memory-read tags (paper, section 5.1: tags allocated and scheduled centrally so
 * none is reused while in use; spec 30-chpp-dma.md, "Tags"). {@link #alloc} offers the lowest free tag, one grant
 * per cycle; a read ends by its last completion or an error completion ({@link #release}), or, after
 * {@code completionTimeout} cycles without either, by a timeout ({@link #timedOut}). A timed-out tag is
 * quarantined, not reused, until its late completion arrives or another {@code completionTimeout} cycles pass.
 * Releases for tags not in use are refused and counted. docs/chpp-dma.md, "Tag allocator".
 */
public final class TagAllocator extends Module {
    public final ChppParams params;
    /** The next tag to use: valid while a tag is free; bits hold until taken. */
    public final Decoupled<UInt> alloc;
    /** End of a read: its last completion, or an error completion (UR/CA). */
    public final Valid<TagRelease> release;
    /** A read that waited {@code completionTimeout} cycles: its tag is reclaimed; the owner ends the transfer with an error. */
    public final Valid<UInt> timedOut;
    /** Tags neither in flight nor quarantined (including the one offered on {@link #alloc}). */
    public final UInt freeCount;
    /** Bit t: tag t's read is outstanding. */
    public final UInt inFlight;
    /** Bit t: tag t timed out and waits for its late completion or the end of its quarantine. */
    public final UInt quarantined;
    /** Releases for a tag neither in flight nor quarantined, or beyond the pool: refused (saturating 32-bit). */
    public final UInt spuriousReleases;
    /** Reads ended by timeout (saturating 32-bit). */
    public final UInt timeouts;
    /** Releases for quarantined tags: completions that came after their read timed out (saturating 32-bit). */
    public final UInt lateCompletions;
    /** In-flight reads ended by an error completion (saturating 32-bit). */
    public final UInt errorCompletions;

    public TagAllocator(ChppParams p) {
        params = p;
        int n = p.tags();
        int tb = p.tagBits();
        int limit = p.completionTimeout();
        int ageBits = log2Up(limit + 1L);
        alloc = output(Decoupled.of(UInt(tb)));
        release = input(Valid.of(TagRelease::new));
        timedOut = output(Valid.of(UInt(tb)));
        freeCount = output(UInt(log2Up(n + 1L)));
        inFlight = output(UInt(n));
        quarantined = output(UInt(n));
        spuriousReleases = output(UInt(Counters.BITS));
        timeouts = output(UInt(Counters.BITS));
        lateCompletions = output(UInt(Counters.BITS));
        errorCompletions = output(UInt(Counters.BITS));

        // the offer register: a tag reserved for the next grant, so alloc.bits holds until it fires
        Bool offerValid = regInit(Bool(), 0).named("offerValid");
        UInt offerTag = regInit(UInt(tb), 0).named("offerTag");
        alloc.valid.assign(offerValid);
        alloc.bits.assign(offerTag);
        Bool grant = alloc.fire();

        UInt relTag = release.bits.tag;
        Bool relInRange = n >= 256 ? TRUE() : relTag.lt(n);
        List<Bool> busy = new ArrayList<>(n);
        List<Bool> inF = new ArrayList<>(n);
        List<Bool> quar = new ArrayList<>(n);
        List<UInt> age = new ArrayList<>(n);
        List<Bool> relHit = new ArrayList<>(n);
        List<Bool> expired = new ArrayList<>(n);
        for (int t = 0; t < n; t++) {
            inF.add(regInit(Bool(), 0).named("inFlight" + t));
            quar.add(regInit(Bool(), 0).named("quarantined" + t));
            age.add(regInit(UInt(ageBits), 0).named("age" + t));
            relHit.add(release.valid.and(relInRange).and(relTag.eq(t)));
            // a release in the very cycle the limit is reached wins: the read completed in time
            expired.add(inF.get(t).and(age.get(t).ge(limit)).andNot(relHit.get(t)));
            busy.add(inF.get(t).or(quar.get(t)));
        }
        // several reads can expire in one cycle: the lowest is reported now, the others (their ages held at the
        // limit) in the following cycles
        List<Bool> report = PriorityEncoderOH(expired);
        timedOut.valid.assign(fromBools(expired).orR());
        timedOut.bits.assign(OHToUInt(report).pad(tb));

        List<Bool> candidates = new ArrayList<>(n);
        for (int t = 0; t < n; t++) {
            Bool f = inF.get(t);
            Bool q = quar.get(t);
            UInt a = age.get(t);
            Bool hit = relHit.get(t);
            Bool reported = report.get(t);
            Bool granted = grant.and(offerTag.eq(t));
            when(granted, () -> {
                f.assign(TRUE());
                a.assign(1);
            }).elsewhen(f, () -> {
                when(hit, () -> {
                    f.assign(FALSE());
                    a.assign(0);
                }).elsewhen(reported, () -> {
                    f.assign(FALSE());
                    q.assign(TRUE());
                    a.assign(1);
                }).elsewhen(a.lt(limit), () -> a.assign(a.add(1)));
            }).elsewhen(q, () -> {
                when(hit.or(a.ge(limit)), () -> {
                    q.assign(FALSE());
                    a.assign(0);
                }).otherwise(() -> a.assign(a.add(1)));
            });
            // free now and not the tag on offer (which is either held or taken this cycle)
            candidates.add(busy.get(t).not().andNot(offerValid.and(offerTag.eq(t))));
        }
        when(offerValid.not().or(grant), () -> {
            offerValid.assign(fromBools(candidates).orR());
            offerTag.assign(PriorityEncoder(candidates).pad(tb));
        });

        // the release's tag as an index into the pool (its high bits are zero whenever relInRange holds)
        UInt relIdx = relTag.trunc(Math.min(relTag.width(), log2Up(Math.max(2, n))));
        Bool relInFlight = relInRange.and(fromBools(inF).bit(relIdx));
        Bool relQuar = relInRange.and(fromBools(quar).bit(relIdx));
        freeCount.assign(lit(n, freeCount.width()).sub(PopCount(busy).pad(freeCount.width())));
        inFlight.assign(fromBools(inF));
        quarantined.assign(fromBools(quar));
        spuriousReleases.assign(Counters.count(release.valid.andNot(relInFlight.or(relQuar)), "spurious"));
        timeouts.assign(Counters.count(timedOut.valid, "timeoutCount"));
        lateCompletions.assign(Counters.count(release.valid.and(relQuar), "late"));
        errorCompletions.assign(Counters.count(release.valid.and(release.bits.error).and(relInFlight), "errors"));
    }
}
