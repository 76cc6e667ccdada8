package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.log2Up;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Arbiter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.Pcie;

/**
 * Reads the descriptor the arbiter chose (paper: NIC flow (1), SDQ fetched by DMA): for a DMA VP one 64-byte
 * DMA read of its SDQ slot under a free tag (several VPs' reads overlap, completions in any order), for a
 * PIO VP the 8 qwords of its hardware queue slot. A read that completes with an error, not as one 64-byte
 * completion, or not within {@code cplTimeout} cycles frees its tag and is reported, never left hanging.
 * docs/th2-nic.md, "Host-visible queues"; docs/host-pcie.md.
 */
public final class DescFetch extends Module {
    /** Status of a read whose completion was not one 64-byte beat (a 64-byte aligned read is never split). */
    public static final int BAD_COMPLETION = 6;
    /** Status of a read with no completion within the timeout. */
    public static final int TIMEOUT = 7;

    public final Decoupled<UInt> req = input(Decoupled.of(UInt(6)));
    public final QueueLookup sdq = input(new QueueLookup());
    public final UInt hdqAddr;
    public final UInt hdqData = input(UInt(64));
    public final Decoupled<DmaRequest> dma = output(Decoupled.of(DmaRequest::new));
    public final Decoupled<DmaCompletion> cpl = input(Decoupled.of(DmaCompletion::new));
    public final Decoupled<FetchedDesc> out = output(Decoupled.of(FetchedDesc::new));
    /** Completion timeout in cycles (a register). */
    public final UInt cplTimeout = input(UInt(32));
    /** One-cycle pulse: a completion for a tag with no read outstanding (late after a timeout), dropped. */
    public final Bool staleCpl = output(Bool());
    /** Reads in flight (for waveforms and the register map). */
    public final UInt tagsBusy;

    public final int tags;

    /** @param tags DMA reads in flight at once (1..256) */
    public DescFetch(int tags) {
        if (tags < 1 || tags > 256) {
            throw new IllegalArgumentException("DescFetch tags must be 1..256, got " + tags);
        }
        this.tags = tags;
        int tb = log2Up(tags);
        int words = NicHost.DESCRIPTOR_QWORDS;
        hdqAddr = output(UInt(log2Up(NicHost.PIO_VPS * NicHost.HDQ_DEPTH * words)));
        tagsBusy = output(UInt(tags));

        Vec<UInt> tagVp = reg(Vec(tags, () -> UInt(6))).named("tagVp");
        Vec<UInt> tagIndex = reg(Vec(tags, () -> UInt(NicHost.INDEX_BITS))).named("tagIndex");
        Vec<UInt> tagAge = regInit(Vec(tags, () -> UInt(32)), 0).named("tagAge");
        UInt busy = regInit(UInt(tags), 0).named("busy");

        // PIO: 8 qwords from the HDQ, one per cycle, into a shift register
        Bool pioBusy = regInit(Bool(), 0).named("pioBusy");
        Bool pioDone = regInit(Bool(), 0).named("pioDone");
        UInt pioWord = regInit(UInt(3), 0).named("pioWord");
        UInt pioVp = reg(UInt(6)).named("pioVp");
        UInt pioIndex = reg(UInt(NicHost.INDEX_BITS)).named("pioIndex");
        UInt pioData = reg(UInt(64 * words)).named("pioData");

        Bool isPio = req.bits.lt(NicHost.PIO_VPS);
        List<Bool> free = new ArrayList<>();
        List<UInt> ids = new ArrayList<>();
        for (int t = 0; t < tags; t++) {
            free.add(busy.bit(t).not());
            ids.add(lit(t, Math.max(tb, 1)));
        }
        Bool anyFree = busy.andR().not();
        UInt freeTag = priorityMux(free, ids);

        sdq.vp.assign(req.bits);
        dma.valid.assign(req.valid.and(isPio.not()).and(anyFree));
        dma.bits.write.assign(FALSE());
        dma.bits.tag.assign(freeTag.pad(Pcie.TAG_BITS));
        dma.bits.addr.assign(sdq.slotAddress(sdq.head, 6));
        dma.bits.len.assign(lit(NicHost.SDQ_ENTRY_BYTES, Pcie.LEN_BITS));
        dma.bits.data.assign(lit(0, Pcie.BEAT_BITS));
        dma.bits.last.assign(TRUE());
        req.ready.assign(mux(isPio, pioBusy.not().and(pioDone.not()), anyFree.and(dma.ready)));

        when(dma.fire(), () -> {
            tagVp.write(freeTag, req.bits);
            tagIndex.write(freeTag, sdq.head);
            tagAge.write(freeTag, lit(0, 32));
        });
        when(req.fire().and(isPio), () -> {
            pioBusy.assign(TRUE());
            pioWord.assign(lit(0, 3));
            pioVp.assign(req.bits);
            pioIndex.assign(sdq.head);
        });
        UInt hdqSlot = pioIndex.bits(log2Up(NicHost.HDQ_DEPTH) - 1, 0);
        hdqAddr.assign(cat(pioVp.bits(2, 0), hdqSlot, pioWord));
        when(pioBusy, () -> {
            // qword k lands in bits 64k+63..64k: shift right, new word on top
            pioData.assign(hdqData.cat(pioData.bits(64 * words - 1, 64)));
            pioWord.assign(pioWord.add(1));
            when(pioWord.eq(words - 1), () -> {
                pioBusy.assign(FALSE());
                pioDone.assign(TRUE());
            });
        });

        // completions and timeouts into one queue, completions first
        Queue<FetchedDesc> done = instance(new Queue<>(FetchedDesc::new, 2));
        UInt ctag = cpl.bits.tag.trunc(Math.max(tb, 1));
        Bool tagOk = cpl.bits.tag.lt(tags).and(busy.bit(ctag));
        List<Bool> expired = new ArrayList<>();
        for (int t = 0; t < tags; t++) {
            expired.add(busy.bit(t).and(tagAge.get(t).ge(cplTimeout)));
        }
        Bool anyExpired = expired.stream().reduce(Bool::or).orElseThrow();
        UInt expTag = priorityMux(expired, ids);
        Bool takeCpl = cpl.valid.and(tagOk);
        cpl.ready.assign(done.enq.ready.or(tagOk.not()));
        staleCpl.assign(cpl.valid.and(tagOk.not()));
        UInt t = mux(takeCpl, ctag, expTag);
        done.enq.valid.assign(takeCpl.or(anyExpired));
        done.enq.bits.vp.assign(tagVp.at(t));
        done.enq.bits.index.assign(tagIndex.at(t));
        done.enq.bits.desc.assign(mux(takeCpl, cpl.bits.data, lit(0, Pcie.BEAT_BITS)));
        Bool whole = cpl.bits.bytes.eq(NicHost.SDQ_ENTRY_BYTES).and(cpl.bits.last);
        UInt cplStatus = mux(cpl.bits.status.ne(Pcie.SC), cpl.bits.status, mux(whole, lit(0, 3), lit(BAD_COMPLETION, 3)));
        done.enq.bits.status.assign(mux(takeCpl, cplStatus, lit(TIMEOUT, 3)));

        UInt setBusy = mux(dma.fire(), lit(1, tags).shlTrunc(freeTag), lit(0, tags));
        UInt clrBusy = mux(done.enq.fire(), lit(1, tags).shlTrunc(t), lit(0, tags));
        busy.assign(busy.and(clrBusy.not()).or(setBusy));
        for (int k = 0; k < tags; k++) {
            UInt age = tagAge.get(k);
            when(busy.bit(k).and(age.lt(0xFFFF_FFFFL)), () -> age.assign(age.add(1)));
        }
        tagsBusy.assign(busy);

        Arbiter<FetchedDesc> arb = instance(new Arbiter<>(FetchedDesc::new, 2));
        arb.in.get(0).connect(done.deq);
        arb.in.get(1).valid.assign(pioDone);
        arb.in.get(1).bits.vp.assign(pioVp);
        arb.in.get(1).bits.index.assign(pioIndex);
        arb.in.get(1).bits.desc.assign(pioData);
        arb.in.get(1).bits.status.assign(lit(0, 3));
        when(arb.in.get(1).fire(), () -> pioDone.assign(FALSE()));
        out.connect(arb.out);
    }
}
