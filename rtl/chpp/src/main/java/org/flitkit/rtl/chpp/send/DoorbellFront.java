package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Counters;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * The send engine's front: a {@link DoorbellModule} whose FIFO heads feed a {@link FunctionArbiter}, so doorbell
 * writes come in and arbitrated doorbells, tagged with their function, go out toward descriptor read (spec
 * 30-chpp-dma.md, "Engine structure"). Ports as in the two blocks; docs/chpp-dma.md, "Blocks" and "Doorbell module".
 */
public final class DoorbellFront extends Module {
    public final ChppParams params;
    public final Valid<FunctionDoorbell> write;
    public final Bool refused;
    public final Decoupled<FunctionDoorbell> out;
    public final UInt nonEmpty;
    public final Vec<UInt> count;
    public final Vec<UInt> overflows;
    public final UInt badFunction;

    public DoorbellFront(ChppParams p) {
        params = p;
        int n = p.functions();
        DoorbellModule doorbells = instance("doorbells", new DoorbellModule(p));
        FunctionArbiter arbiter = instance("arbiter", new FunctionArbiter(p));
        write = input(Valid.of(FunctionDoorbell::new));
        refused = output(Bool());
        out = output(Decoupled.of(FunctionDoorbell::new));
        nonEmpty = output(UInt(n));
        count = output(Vec(n, () -> UInt(doorbells.count.get(0).width())));
        overflows = output(Vec(n, () -> UInt(Counters.BITS)));
        badFunction = output(UInt(Counters.BITS));

        doorbells.write.connect(write);
        refused.assign(doorbells.refused);
        for (int f = 0; f < n; f++) {
            arbiter.in.get(f).connect(doorbells.heads.get(f));
        }
        out.connect(arbiter.out);
        nonEmpty.assign(doorbells.nonEmpty);
        count.assign(doorbells.count);
        overflows.assign(doorbells.overflows);
        badFunction.assign(doorbells.badFunction);
    }
}
