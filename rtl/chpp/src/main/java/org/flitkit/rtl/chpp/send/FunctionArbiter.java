package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.hdl.lib.WeightedRRArbiter;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.ArbiterBase;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.RRArbiter;

/**
 * Picks the next doorbell among the functions' non-empty doorbell FIFOs for the descriptor-read stage (paper,
 * sections 3.5 and 5.5: fair arbitration over the FIFOs, priorities possible): the library's {@link RRArbiter}
 * by default, a {@link WeightedRRArbiter} with {@link ChppParams.Arbitration#WEIGHTED}. One grant per cycle while
 * {@code out.ready} is high; idle functions are skipped in the same cycle. docs/chpp-dma.md, "Function arbiter".
 */
public final class FunctionArbiter extends Module {
    public final ChppParams params;
    /** The FIFO heads, one per function ({@link DoorbellModule#heads}). */
    public final Vec<Decoupled<Doorbell>> in;
    /** The granted doorbell and its function, toward descriptor read. */
    public final Decoupled<FunctionDoorbell> out;

    public FunctionArbiter(ChppParams p) {
        params = p;
        int n = p.functions();
        in = input(Vec(n, () -> Decoupled.of(Doorbell::new)));
        out = output(Decoupled.of(FunctionDoorbell::new));

        ArbiterBase<Doorbell> arb = p.arbitration() == ChppParams.Arbitration.WEIGHTED
                ? instance("arb", new WeightedRRArbiter<>(Doorbell::new, p.weights()))
                : instance("arb", new RRArbiter<>(Doorbell::new, n));
        for (int f = 0; f < n; f++) {
            arb.in.get(f).connect(in.get(f));
        }
        out.valid.assign(arb.out.valid);
        arb.out.ready.assign(out.ready);
        out.bits.doorbell.assign(arb.out.bits);
        out.bits.function.assign(arb.chosen.pad(Doorbell.FUNCTION_BITS));
    }
}
