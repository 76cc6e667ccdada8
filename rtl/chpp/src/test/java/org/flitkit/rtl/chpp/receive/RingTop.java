package org.flitkit.rtl.chpp.receive;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.pcie.DmaCompletion;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.rtl.pcie.MmioWrite;

/**
 * Test top: one {@link CompletionRing} with the port set {@code PcieHost} connects to (the ring only writes, so the
 * completion input is taken and ignored; the ring never reads).
 */
final class RingTop extends Module {
    final CompletionRing ring;
    final Decoupled<UInt> in;
    final Decoupled<DmaRequest> dmaRq;
    final Decoupled<DmaCompletion> dmaCpl;
    final Decoupled<MmioWrite> mmio;

    RingTop(CompletionRingParams p) {
        ring = instance("ring", new CompletionRing(p));
        in = input(Decoupled.of(UInt(128)));
        dmaRq = output(Decoupled.of(() -> new DmaRequest(CompletionRing.BEAT_BYTES)));
        dmaCpl = input(Decoupled.of(() -> new DmaCompletion(CompletionRing.BEAT_BYTES)));
        mmio = input(Decoupled.of(MmioWrite::new));
        ring.in.valid.assign(in.valid);
        ring.in.bits.entry.assign(in.bits);
        ring.in.bits.ring.assign(0);
        in.ready.assign(ring.in.ready);
        dmaRq.connect(ring.dmaRq);
        ring.mmio.connect(mmio);
        dmaCpl.ready.assign(TRUE());
    }
}
