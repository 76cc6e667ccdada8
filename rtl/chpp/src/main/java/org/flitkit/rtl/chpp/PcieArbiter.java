package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.log2Up;
import static org.flitkit.hdl.lib.OneHot.UIntToOH;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * The engine's one PCIe DMA port shared by its stages: memory reads of every reader (descriptor read, data read,
 * buffer management) take tags from the one central {@link TagAllocator} (paper section 5.1), and each read's
 * completions and timeout go back to the reader that owns its tag; posted writes (uploads, completion rings) are
 * merged whole. docs/chpp-nic.md, "PCIe arbiter".
 */
public final class PcieArbiter extends Module {
    public final int readers;
    public final int writers;
    /** The central allocator (public so tests can check its invariant every cycle). */
    public final TagAllocator tags;

    /** Per reader: its read requests, one beat each, carrying the tag it was offered on {@code tag}. */
    public final Vec<Decoupled<DmaRequest>> readRq;
    /** Per reader: the allocator's offered tag; a reader takes it in the cycle its read request leaves. */
    public final Vec<Decoupled<UInt>> tag;
    /** Per reader: the completions of its own tags (the reader must be always ready). */
    public final Vec<Decoupled<DmaCompletion>> readCpl;
    /** Per reader: its tags' releases (last or error completion); at most one reader releases per cycle. */
    public final Vec<Valid<TagRelease>> tagRelease;
    /** Per reader: the allocator's timeouts of its own tags. */
    public final Vec<Valid<UInt>> tagTimedOut;
    /** Per writer: posted writes, whole (beats of one write never interleave with another request). */
    public final Vec<Decoupled<DmaRequest>> writeRq;
    /** To the host. */
    public final Decoupled<DmaRequest> dmaRq;
    /** From the host; always ready. */
    public final Decoupled<DmaCompletion> dmaCpl;
    /** Completion beats for a tag no reader was given (sent to reader 0, which counts them as stray). */
    public final UInt unowned;

    /**
     * {@code readers}, {@code writers}: stages on each side (1..16 readers, 0..16 writers). Request order is round
     * robin over readers then writers, a write holding the port until its last beat. With no writers,
     * {@code writeRq} has one port that is never ready.
     */
    public PcieArbiter(ChppParams p, int readers, int writers) {
        this(check(readers, writers), p, writers);
    }

    private PcieArbiter(int readers, ChppParams p, int writers) {
        this.readers = readers;
        this.writers = writers;
        int nt = p.tags();
        int tb = p.tagBits();
        int ob = Math.max(1, log2Up(readers));
        tags = instance("tags", new TagAllocator(p));

        readRq = input(Vec(readers, () -> Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES))));
        tag = output(Vec(readers, () -> Decoupled.of(() -> UInt(tb))));
        readCpl = output(Vec(readers, () -> Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES))));
        tagRelease = input(Vec(readers, () -> Valid.of(TagRelease::new)));
        tagTimedOut = output(Vec(readers, () -> Valid.of(UInt(tb))));
        // a Vec has at least one element: with no writers, one port that must stay idle
        writeRq = input(Vec(Math.max(1, writers), () -> Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES))));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES)));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(Pcie.CHPP_BEAT_BYTES)));
        unowned = output(UInt(Counters.BITS));

        RRArbiter<DmaRequest> arb = instance("requests",
                new RRArbiter<>(() -> new DmaRequest(Pcie.CHPP_BEAT_BYTES), readers + writers, Lock.until(b -> b.last)));
        for (int r = 0; r < readers; r++) {
            arb.in.get(r).connect(readRq.get(r));
        }
        for (int w = 0; w < writers; w++) {
            arb.in.get(readers + w).connect(writeRq.get(w));
        }
        if (writers == 0) {
            writeRq.get(0).ready.assign(FALSE());
        }
        dmaRq.connect(arb.out);

        // every reader sees the offer; only the one whose request leaves takes it (its tag.ready follows its
        // request's ready, which only the granted reader gets), so the offer is taken at most once per cycle
        Bool taken = FALSE();
        for (int r = 0; r < readers; r++) {
            tag.get(r).valid.assign(tags.alloc.valid);
            tag.get(r).bits.assign(tags.alloc.bits);
            taken = taken.or(tag.get(r).ready);
        }
        tags.alloc.ready.assign(taken);

        // the owner of each tag, recorded when its read leaves
        List<UInt> owner = new ArrayList<>();
        for (int t = 0; readers > 1 && t < nt; t++) {
            owner.add(regInit(UInt(ob), 0).named("owner" + t));
        }
        if (readers > 1) {
            // one read leaves per cycle, on the arbiter's output: its input index is the owner of its tag
            Bool issued = dmaRq.fire().andNot(dmaRq.bits.write);
            UInt issuedOH = UIntToOH(dmaRq.bits.tag, nt);
            UInt who = arb.chosen.bits(ob - 1, 0);
            for (int t = 0; t < nt; t++) {
                final UInt o = owner.get(t);
                when(issued.and(issuedOH.bit(t)), () -> o.assign(who));
            }
        }

        // completions to the owner of their tag; a tag outside the pool selects no owner, so reader 0 (counted there
        // as stray)
        DmaCompletion c = dmaCpl.bits;
        Bool inPool = nt >= 256 ? TRUE() : c.tag.lt(nt);
        UInt cplOwner = readers > 1 ? Mux1H(UIntToOH(c.tag, nt), owner) : lit(0, ob);
        unowned.assign(Counters.count(dmaCpl.fire().andNot(inPool), "unowned"));
        dmaCpl.ready.assign(TRUE());
        for (int r = 0; r < readers; r++) {
            Decoupled<DmaCompletion> o = readCpl.get(r);
            o.valid.assign(dmaCpl.valid.and(cplOwner.eq(r)));
            o.bits.assign(c);
        }
        UInt toOwner = readers > 1 ? Mux1H(UIntToOH(tags.timedOut.bits, nt), owner) : lit(0, ob);
        for (int r = 0; r < readers; r++) {
            tagTimedOut.get(r).valid.assign(tags.timedOut.valid.and(toOwner.eq(r)));
            tagTimedOut.get(r).bits.assign(tags.timedOut.bits);
        }

        // one completion beat per cycle reaches one reader, so at most one release per cycle
        Bool anyRelease = FALSE();
        List<Bool> relSel = new ArrayList<>();
        List<TagRelease> relBits = new ArrayList<>();
        for (int r = 0; r < readers; r++) {
            anyRelease = anyRelease.or(tagRelease.get(r).valid);
            relSel.add(tagRelease.get(r).valid);
            relBits.add(tagRelease.get(r).bits);
        }
        tags.release.valid.assign(anyRelease);
        tags.release.bits.tag.assign(Mux1H(relSel, relBits.stream().map(b -> b.tag).toList()));
        tags.release.bits.error.assign(Mux1H(relSel, relBits.stream().map(b -> b.error).toList()));
    }

    private static int check(int readers, int writers) {
        if (readers < 1 || readers > 16) {
            throw new IllegalArgumentException("readers " + readers + " outside 1..16 (every read needs a stage to own its tag)");
        }
        if (writers < 0 || writers > 16) {
            throw new IllegalArgumentException("writers " + writers + " outside 0..16");
        }
        return readers;
    }
}
