package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.pcie.DmaRequest;

/**
 * Test top for {@link EventWriter}: the EQ look-up answered from fixed ring bases ({@link #base}) and per-VP ring
 * sizes and consumer indexes the testbench drives, and a free-running cycle counter ({@link #now}) for the timestamps.
 */
final class EqHarness extends Module {
    static final long RING_BASE = 0x2_0000_0000L;

    /** VP v's EQ, 1 MB apart. */
    static long base(int vp) {
        return RING_BASE + ((long) vp << 20);
    }

    final Decoupled<EventReq> in = input(Decoupled.of(EventReq::new));
    final Vec<UInt> log2 = input(Vec(Th2.VP_COUNT, () -> UInt(NicHost.LOG2_BITS)));
    final Vec<UInt> head = input(Vec(Th2.VP_COUNT, () -> UInt(NicHost.INDEX_BITS)));
    final Decoupled<DmaRequest> dma = output(Decoupled.of(DmaRequest::new));
    final Vec<UInt> producer = output(Vec(Th2.VP_COUNT, () -> UInt(NicHost.INDEX_BITS)));
    final Vec<UInt> drops = output(Vec(Th2.VP_COUNT, () -> UInt(32)));
    final Valid<UInt> irq = output(Valid.of(UInt(8)));
    final UInt now = output(UInt(64));

    EqHarness() {
        EventWriter w = instance("eq", new EventWriter());
        UInt counter = regInit(UInt(64), 0);
        counter.assign(counter.add(1));
        now.assign(counter);
        w.cycle.assign(counter);
        w.in.connect(in);
        dma.connect(w.dma);
        producer.assign(w.producer);
        drops.assign(w.drops);
        irq.assign(w.irq);
        w.eq.base.assign(lit(RING_BASE, 64).add(w.eq.vp.pad(44).shl(20)));
        w.eq.log2.assign(log2.at(w.eq.vp));
        w.eq.head.assign(head.at(w.eq.vp));
    }
}
