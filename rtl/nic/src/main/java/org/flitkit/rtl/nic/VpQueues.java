package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.log2Up;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.rtl.pcie.MmioWrite;

/**
 * Descriptor queue management (paper: NIC flow (1)): the per-VP BAR windows the host writes, i.e. the ring
 * bases, the SDQ doorbell (producer index), the host's MPQ/EQ consumer indexes, and the PIO VPs' hardware
 * descriptor queues. A doorbell or HDQ write that would break a ring is refused and counted, never applied.
 * docs/th2-nic.md, "Host-visible queues".
 */
public final class VpQueues extends Module {
    /** BAR writes from the host; always accepted (posted writes cannot be refused). */
    public final Decoupled<MmioWrite> mmio = input(Decoupled.of(MmioWrite::new));
    /** Bit v: VP v has a descriptor to fetch (producer != consumer). */
    public final UInt pending;
    /** The next descriptor of a VP: SDQ base/size and the NIC's consumer index (for a PIO VP: HDQ index). */
    public final QueueLookup sdq = output(new QueueLookup());
    public final QueueLookup mpq = output(new QueueLookup());
    public final QueueLookup eq = output(new QueueLookup());
    /** The fetched descriptor of {@code vp} was used (or skipped): its consumer index advances. */
    public final Valid<UInt> consume = input(Valid.of(UInt(6)));
    /** HDQ read port: address {@code (vp * HDQ_DEPTH + slot) * 8 + qword}, data the qword (combinational). */
    public final UInt hdqAddr;
    public final UInt hdqData = output(UInt(64));
    /** Register-map views per VP: producer (doorbell / HDQ tail) and consumer indexes, the host's MPQ and EQ heads. */
    public final Vec<UInt> tail;
    public final Vec<UInt> head;
    public final Vec<UInt> mpqHead;
    public final Vec<UInt> eqHead;
    /** One-cycle pulses: a doorbell beyond the ring or for a VP without one, a full HDQ, a write to no register. */
    public final Bool doorbellError = output(Bool());
    public final Bool hdqOverflow = output(Bool());
    public final Bool badWrite = output(Bool());

    public final int vps;

    /** @param vps virtual ports (VPs below {@link NicHost#PIO_VPS} are PIO VPs) */
    public VpQueues(int vps) {
        if (vps <= NicHost.PIO_VPS || vps > 64) {
            throw new IllegalArgumentException("VpQueues needs " + (NicHost.PIO_VPS + 1) + "..64 VPs, got " + vps);
        }
        this.vps = vps;
        int ib = NicHost.INDEX_BITS;
        pending = output(UInt(vps));
        tail = output(Vec(vps, () -> UInt(ib)));
        head = output(Vec(vps, () -> UInt(ib)));
        mpqHead = output(Vec(vps, () -> UInt(ib)));
        eqHead = output(Vec(vps, () -> UInt(ib)));
        int hdqWords = NicHost.PIO_VPS * NicHost.HDQ_DEPTH * NicHost.DESCRIPTOR_QWORDS;
        hdqAddr = input(UInt(log2Up(hdqWords)));

        Vec<UInt> sdqCfg = regInit(Vec(vps, () -> UInt(64)), 0).named("sdqCfg");
        Vec<UInt> mpqCfg = regInit(Vec(vps, () -> UInt(64)), 0).named("mpqCfg");
        Vec<UInt> eqCfg = regInit(Vec(vps, () -> UInt(64)), 0).named("eqCfg");
        Vec<UInt> tails = regInit(Vec(vps, () -> UInt(ib)), 0).named("tails");
        Vec<UInt> heads = regInit(Vec(vps, () -> UInt(ib)), 0).named("heads");
        Vec<UInt> mpqHeads = regInit(Vec(vps, () -> UInt(ib)), 0).named("mpqHeads");
        Vec<UInt> eqHeads = regInit(Vec(vps, () -> UInt(ib)), 0).named("eqHeads");
        Mem<UInt> hdq = mem(hdqWords, UInt(64)).named("hdq");

        // decode: VP window, offset in it
        mmio.ready.assign(TRUE());
        UInt addr = mmio.bits.addr;
        UInt vp = addr.bits(NicHost.VP_WINDOW_BITS + 5, NicHost.VP_WINDOW_BITS);
        UInt off = addr.bits(NicHost.VP_WINDOW_BITS - 1, 0);
        Bool inWindow = addr.bits(addr.width() - 1, NicHost.VP_WINDOW_BITS + 6).eq(0).and(vp.lt(vps)).and(addr.bits(2, 0).eq(0));
        Bool pio = vp.lt(NicHost.PIO_VPS);
        UInt data = mmio.bits.data;
        Bool w = mmio.valid.and(inWindow);
        Bool isSdqBase = off.eq(NicHost.SDQ_BASE).and(pio.not());
        Bool isMpqBase = off.eq(NicHost.MPQ_BASE);
        Bool isEqBase = off.eq(NicHost.EQ_BASE);
        Bool isTail = off.eq(NicHost.SDQ_TAIL);
        Bool isMpqHead = off.eq(NicHost.MPQ_HEAD);
        Bool isEqHead = off.eq(NicHost.EQ_HEAD);
        Bool isHdq = off.ge(NicHost.HDQ_WORD0).and(off.lt(NicHost.HDQ_WORD0 + 8 * NicHost.DESCRIPTOR_QWORDS)).and(pio);
        Bool known = isSdqBase.or(isMpqBase).or(isEqBase).or(isTail).or(isMpqHead).or(isEqHead).or(isHdq);

        UInt curTail = tails.at(vp);
        UInt curHead = heads.at(vp);
        UInt sdqLog2 = sdqCfg.at(vp).bits(NicHost.LOG2_BITS - 1, 0);
        // the ring holds 2^log2 descriptors: a doorbell may move the producer at most that far ahead of the consumer
        UInt ahead = data.bits(ib - 1, 0).sub(curHead);
        Bool tailOk = pio.not().and(sdqLog2.ne(0)).and(ahead.pad(ib + 1).le(lit(1, ib + 1).shl(sdqLog2.pad(5)).trunc(ib + 1)));
        UInt hdqUsed = curTail.sub(curHead);
        Bool hdqFull = hdqUsed.ge(NicHost.HDQ_DEPTH);
        UInt qword = off.sub(NicHost.HDQ_WORD0).bits(5, 3);
        Bool lastWord = qword.eq(NicHost.DESCRIPTOR_QWORDS - 1);
        UInt slot = curTail.bits(log2Up(NicHost.HDQ_DEPTH) - 1, 0);

        when(w.and(isSdqBase), () -> sdqCfg.write(vp, data));
        when(w.and(isMpqBase), () -> mpqCfg.write(vp, data));
        when(w.and(isEqBase), () -> eqCfg.write(vp, data));
        when(w.and(isMpqHead), () -> mpqHeads.write(vp, data.bits(ib - 1, 0)));
        when(w.and(isEqHead), () -> eqHeads.write(vp, data.bits(ib - 1, 0)));
        when(w.and(isHdq).and(hdqFull.not()), () -> {
            hdq.write(cat(vp.bits(2, 0), slot, qword), data);
        });
        // a consume and a doorbell for the same VP in one cycle touch different indexes
        when(consume.valid, () -> heads.write(consume.bits, heads.at(consume.bits).add(1)));
        when(w.and(isTail).and(tailOk), () -> tails.write(vp, data.bits(ib - 1, 0)));
        when(w.and(isHdq).and(lastWord).and(hdqFull.not()), () -> tails.write(vp, curTail.add(1)));

        doorbellError.assign(w.and(isTail).and(tailOk.not()));
        hdqOverflow.assign(w.and(isHdq).and(lastWord).and(hdqFull));
        badWrite.assign(mmio.valid.and(inWindow.and(known).not()));

        java.util.List<Bool> pend = new java.util.ArrayList<>();
        for (int v = vps - 1; v >= 0; v--) {
            pend.add(tails.get(v).ne(heads.get(v)));
        }
        pending.assign(cat(pend));
        for (int v = 0; v < vps; v++) {
            tail.get(v).assign(tails.get(v));
            head.get(v).assign(heads.get(v));
            mpqHead.get(v).assign(mpqHeads.get(v));
            eqHead.get(v).assign(eqHeads.get(v));
        }

        lookup(sdq, sdqCfg, heads);
        lookup(mpq, mpqCfg, mpqHeads);
        lookup(eq, eqCfg, eqHeads);
        hdqData.assign(hdq.read(hdqAddr));
    }

    private static void lookup(QueueLookup q, Vec<UInt> cfg, Vec<UInt> heads) {
        UInt c = cfg.at(q.vp);
        q.base.assign(c.bits(63, 12).cat(lit(0, 12)));
        q.log2.assign(c.bits(NicHost.LOG2_BITS - 1, 0));
        q.head.assign(heads.at(q.vp));
    }
}
