package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.pcie.DmaRequest;

/**
 * Test top for {@link MpqWriter}: the MPQ look-up answered from fixed ring bases ({@link #base}) and per-VP
 * ring sizes and consumer indexes that the testbench drives, as VpQueues would from the host's BAR writes.
 */
final class MpqHarness extends Module {
    static final long RING_BASE = 0x1_0000_0000L;

    /** VP v's MPQ: 1 MB apart, so rings up to 2^13 entries of 128 bytes never overlap. */
    static long base(int vp) {
        return RING_BASE + ((long) vp << 20);
    }

    final Decoupled<UInt> in = input(PacketWords.packetStream());
    final Vec<UInt> log2 = input(Vec(Th2.VP_COUNT, () -> UInt(NicHost.LOG2_BITS)));
    final Vec<UInt> head = input(Vec(Th2.VP_COUNT, () -> UInt(NicHost.INDEX_BITS)));
    final Decoupled<DmaRequest> dma = output(Decoupled.of(DmaRequest::new));
    final Decoupled<EventReq> events = output(Decoupled.of(EventReq::new));
    final Vec<UInt> producer = output(Vec(Th2.VP_COUNT, () -> UInt(NicHost.INDEX_BITS)));
    final Vec<UInt> drops = output(Vec(Th2.VP_COUNT, () -> UInt(32)));
    final Valid<UInt> answered = output(Valid.of(UInt(6)));
    final Bool overflow = output(Bool());
    /** The VP the writer looks up (the held packet's DestVP). */
    final UInt lookupVp = output(UInt(6));

    MpqHarness() {
        MpqWriter w = instance("mpq", new MpqWriter());
        w.in.connect(in);
        dma.connect(w.dma);
        events.connect(w.events);
        producer.assign(w.producer);
        drops.assign(w.drops);
        answered.assign(w.answered);
        overflow.assign(w.overflow);
        lookupVp.assign(w.mpq.vp);
        w.mpq.base.assign(lit(RING_BASE, 64).add(w.mpq.vp.pad(44).shl(20)));
        w.mpq.log2.assign(log2.at(w.mpq.vp));
        w.mpq.head.assign(head.at(w.mpq.vp));
    }
}
