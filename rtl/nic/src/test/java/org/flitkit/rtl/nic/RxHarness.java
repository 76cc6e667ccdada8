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
 * Test top for NIC flow (4) end to end: {@link RecvDispatch}, {@link MpqWriter}, {@link EventWriter} and a
 * {@link DmaMux} for their writes, with the rings answered from fixed bases ({@link MpqHarness#base},
 * {@link EqHarness#base}) and per-VP sizes and consumer indexes the testbench drives.
 */
final class RxHarness extends Module {
    final Decoupled<UInt> linkIn = input(Decoupled.of(UInt(Th2.FLIT_BITS)));
    final UInt chipId = input(UInt(Th2.CHIP_ID_BITS));
    final Vec<UInt> mpqLog2 = input(Vec(Th2.VP_COUNT, () -> UInt(NicHost.LOG2_BITS)));
    final Vec<UInt> mpqHead = input(Vec(Th2.VP_COUNT, () -> UInt(NicHost.INDEX_BITS)));
    final Vec<UInt> eqLog2 = input(Vec(Th2.VP_COUNT, () -> UInt(NicHost.LOG2_BITS)));
    final Vec<UInt> eqHead = input(Vec(Th2.VP_COUNT, () -> UInt(NicHost.INDEX_BITS)));
    final Decoupled<UInt> toNma = output(PacketWords.packetStream());
    final Decoupled<DmaRequest> dma = output(Decoupled.of(DmaRequest::new));
    final Valid<UInt> irq = output(Valid.of(UInt(8)));
    /** RecvDispatch's drop pulses: crc, malformed, destType, destId, vp (bit 4 down to 0). */
    final UInt dropped = output(UInt(5));
    final Bool overflow = output(Bool());

    RxHarness() {
        RecvDispatch rx = instance("rx", new RecvDispatch());
        MpqWriter mpq = instance("mpq", new MpqWriter());
        EventWriter eq = instance("eq", new EventWriter());
        DmaMux mux = instance("dmaMux", new DmaMux(2));
        rx.linkIn.connect(linkIn);
        rx.chipId.assign(chipId);
        toNma.connect(rx.toNma);
        mpq.in.connect(rx.toHost);
        eq.in.connect(mpq.events);
        mux.in.get(0).connect(mpq.dma);
        mux.in.get(1).connect(eq.dma);
        dma.connect(mux.out);
        irq.assign(eq.irq);
        dropped.assign(cat(rx.crcDrop, rx.malformedDrop, rx.destTypeDrop, rx.destIdDrop, rx.vpDrop));
        overflow.assign(mpq.overflow);
        UInt counter = regInit(UInt(64), 0);
        counter.assign(counter.add(1));
        eq.cycle.assign(counter);
        mpq.mpq.base.assign(lit(MpqHarness.RING_BASE, 64).add(mpq.mpq.vp.pad(44).shl(20)));
        mpq.mpq.log2.assign(mpqLog2.at(mpq.mpq.vp));
        mpq.mpq.head.assign(mpqHead.at(mpq.mpq.vp));
        eq.eq.base.assign(lit(EqHarness.RING_BASE, 64).add(eq.eq.vp.pad(44).shl(20)));
        eq.eq.log2.assign(eqLog2.at(eq.eq.vp));
        eq.eq.head.assign(eqHead.at(eq.eq.vp));
    }
}
