package org.flitkit.rtl.nrc.switchcore;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;

/**
 * Dynamically allocated multi-queue input buffer: one shared flit memory, a linked list per VC (next
 * pointers, head and tail per VC) and a free list. The reservation per VC is enforced upstream by credits
 * (docs/th2-nrc-switch.md), so the buffer itself needs only the free list. One flit in and one out per cycle.
 * Spec: 20-th2-management.md, "The system" (DAMQ buffers).
 */
public final class Damq extends Module {
    public final int capacity;
    public final int vcs;
    public final int addrBits;
    public final int countBits;

    public final Bool enqValid = input(Bool());
    public final UInt enqVc = input(UInt(3));
    public final UInt enqData;
    /** routing decision stored with the flit (meaningful on heads) */
    public final UInt enqTag;
    /** remove the front flit of VC {@code deqVc} (ignored if that VC is empty) */
    public final Bool deq = input(Bool());
    public final UInt deqVc = input(UInt(3));
    /** the front flit of VC {@code deqVc} */
    public final UInt deqData;
    /** the tag of each VC's front flit */
    public final Vec<UInt> headTag;
    /** flits held per VC */
    public final Vec<UInt> count;
    /** free slots */
    public final UInt free;
    /** an arriving flit found no free slot and was dropped (an upstream ignoring credits) */
    public final Bool overflow = output(Bool());

    public Damq(int capacity, int vcs, int dataBits, int tagBits) {
        if (capacity < 1 || vcs < 1 || vcs > 8) {
            throw new IllegalArgumentException("DAMQ capacity " + capacity + " / vcs " + vcs + " out of range");
        }
        this.capacity = capacity;
        this.vcs = vcs;
        this.addrBits = log2Up(capacity);
        this.countBits = log2Up(capacity + 1);
        enqData = input(UInt(dataBits));
        enqTag = input(UInt(tagBits));
        deqData = output(UInt(dataBits));
        headTag = output(Vec(vcs, () -> UInt(tagBits)));
        count = output(Vec(vcs, () -> UInt(countBits)));
        free = output(UInt(countBits));

        Mem<UInt> data = mem(capacity, UInt(dataBits)).named("data");
        Mem<UInt> tags = mem(capacity, UInt(tagBits)).named("tags");
        Mem<UInt> next = mem(capacity, UInt(addrBits)).named("next");
        // recycled slots; slots never used yet come from `fresh`, so reset needs no memory initialisation
        Mem<UInt> freeFifo = mem(capacity, UInt(addrBits)).named("freeFifo");
        UInt fresh = regInit(UInt(countBits), 0).named("fresh");
        UInt fifoRd = regInit(UInt(addrBits), 0).named("fifoRd");
        UInt fifoWr = regInit(UInt(addrBits), 0).named("fifoWr");
        UInt fifoCount = regInit(UInt(countBits), 0).named("fifoCount");
        UInt[] head = new UInt[vcs];
        UInt[] tail = new UInt[vcs];
        UInt[] cnt = new UInt[vcs];
        for (int v = 0; v < vcs; v++) {
            head[v] = regInit(UInt(addrBits), 0).named("head" + v);
            tail[v] = regInit(UInt(addrBits), 0).named("tail" + v);
            cnt[v] = regInit(UInt(countBits), 0).named("count" + v);
            count.get(v).assign(cnt[v]);
            headTag.get(v).assign(tags.read(head[v]));
        }

        UInt deqHead = vcs == 1 ? head[0] : vecOf(head).at(deqVc.trunc(log2Up(vcs)));
        UInt deqCount = vcs == 1 ? cnt[0] : vecOf(cnt).at(deqVc.trunc(log2Up(vcs)));
        deqData.assign(data.read(deqHead));
        Bool deqFire = deq.and(deqCount.ne(0)).and(deqVc.lt(vcs)).named("deqFire");

        Bool useFresh = fresh.lt(capacity);
        Bool canAlloc = useFresh.or(fifoCount.ne(0));
        Bool enqFire = enqValid.and(canAlloc).and(enqVc.lt(vcs)).named("enqFire");
        overflow.assign(enqValid.and(canAlloc.not()));
        UInt allocAddr = mux(useFresh, fresh.trunc(addrBits), freeFifo.read(fifoRd)).named("allocAddr");

        free.assign(lit(capacity, countBits).sub(fresh).add(fifoCount));
        Bool pop = enqFire.and(useFresh.not());
        when(enqFire.and(useFresh), () -> fresh.assign(fresh.add(1)));
        when(pop, () -> fifoRd.assign(wrap(fifoRd)));
        when(deqFire, () -> {
            freeFifo.write(fifoWr, deqHead);
            fifoWr.assign(wrap(fifoWr));
        });
        fifoCount.assign(fifoCount.add(deqFire.pad(countBits)).sub(pop.pad(countBits)));

        when(enqFire, () -> {
            data.write(allocAddr, enqData);
            tags.write(allocAddr, enqTag);
        });
        for (int v = 0; v < vcs; v++) {
            final int vc = v;
            Bool enqHere = enqFire.and(enqVc.eq(v));
            Bool deqHere = deqFire.and(deqVc.eq(v));
            when(deqHere, () -> head[vc].assign(next.read(head[vc])));
            // the list is (or becomes) empty: the new flit is also its front
            Bool emptyAfterDeq = cnt[v].eq(0).or(deqHere.and(cnt[v].eq(1)));
            when(enqHere, () -> {
                tail[vc].assign(allocAddr);
                when(emptyAfterDeq, () -> head[vc].assign(allocAddr));
            });
            when(enqHere.and(cnt[v].ne(0)), () -> next.write(tail[vc], allocAddr));
            cnt[v].assign(cnt[v].add(enqHere.pad(countBits)).sub(deqHere.pad(countBits)));
        }
    }

    private UInt wrap(UInt ptr) {
        return mux(ptr.eq(capacity - 1), lit(0, addrBits), ptr.add(1));
    }
}
