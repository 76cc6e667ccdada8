package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Lock;
import org.flitkit.hdl.lib.RRArbiter;
import org.flitkit.rtl.pcie.DmaRequest;

/**
 * One DMA request stream to the host interface from several sources (descriptor fetch, MPQ writer, EQ writer):
 * round robin between requests; a multi-beat write keeps the grant until its {@code last} beat, a read is one
 * beat. docs/th2-nic.md, "Blocks"; docs/host-pcie.md (request beats).
 */
public final class DmaMux extends Module {
    public final Vec<Decoupled<DmaRequest>> in;
    public final Decoupled<DmaRequest> out = output(Decoupled.of(DmaRequest::new));
    /** The input on {@code out} (for tests and waveforms). */
    public final UInt chosen;

    public DmaMux(int n) {
        if (n < 1) {
            throw new HdlException("DmaMux needs at least one input, got " + n);
        }
        in = input(Vec(n, () -> Decoupled.of(DmaRequest::new)));
        RRArbiter<DmaRequest> arb = instance("arb", new RRArbiter<>(DmaRequest::new, n,
                Lock.until(r -> r.write.not().or(r.last))));
        for (int i = 0; i < n; i++) {
            arb.in.get(i).connect(in.get(i));
        }
        out.connect(arb.out);
        chosen = output(UInt(arb.chosen.width()));
        chosen.assign(arb.chosen);
    }
}
