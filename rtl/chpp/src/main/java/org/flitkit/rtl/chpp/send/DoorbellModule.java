package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.Counters;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.fromBools;
import static org.flitkit.hdl.lib.Bitwise.log2Up;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.Valid;

/**
 * The send engine's doorbell module (paper, section 4.1; spec 30-chpp-dma.md, "Engine structure"): one FIFO of
 * {@code doorbellDepth} doorbells per PCIe function, filled from one write port. The port has no backpressure
 * (doorbells are posted MMIO writes): a doorbell for a full FIFO or for a function that does not exist is refused
 * ({@link #refused} high that cycle), leaves every FIFO untouched and is counted. The FIFO heads go to a
 * {@link FunctionArbiter} (composed in {@link DoorbellFront}); docs/chpp-dma.md, "Doorbell module".
 */
public final class DoorbellModule extends Module {
    public final ChppParams params;
    /** Doorbell writes from the doorbell window: at most one per cycle. */
    public final Valid<FunctionDoorbell> write;
    /** High in the cycle of a write that was refused (FIFO full or function out of range). */
    public final Bool refused;
    /** Head of each function's FIFO; the arbiter takes a doorbell by raising ready. */
    public final Vec<Decoupled<Doorbell>> heads;
    /** Bit f: function f's FIFO holds a doorbell (the same as heads[f].valid). */
    public final UInt nonEmpty;
    /** Doorbells stored per function. */
    public final Vec<UInt> count;
    /** Per function: doorbells refused because its FIFO was full (saturating 32-bit). */
    public final Vec<UInt> overflows;
    /** Doorbells refused because their function number is not below {@code functions} (saturating 32-bit). */
    public final UInt badFunction;

    public DoorbellModule(ChppParams p) {
        params = p;
        int n = p.functions();
        write = input(Valid.of(FunctionDoorbell::new));
        refused = output(Bool());
        heads = output(Vec(n, () -> Decoupled.of(Doorbell::new)));
        nonEmpty = output(UInt(n));
        count = output(Vec(n, () -> UInt(log2Up(p.doorbellDepth() + 1))));
        overflows = output(Vec(n, () -> UInt(Counters.BITS)));
        badFunction = output(UInt(Counters.BITS));

        UInt fn = write.bits.function;
        // an 8-bit function number cannot exceed 255, so with 256 functions every number exists
        Bool inRange = n >= 1 << Doorbell.FUNCTION_BITS ? TRUE() : fn.lt(n);
        Bool bad = write.valid.andNot(inRange);
        List<Bool> overflowed = new ArrayList<>(n);
        List<Bool> valids = new ArrayList<>(n);
        for (int f = 0; f < n; f++) {
            Queue<Doorbell> q = instance("fifo" + f, new Queue<>(Doorbell::new, p.doorbellDepth()));
            Bool hit = write.valid.and(fn.eq(f));
            q.enq.valid.assign(hit);
            q.enq.bits.assign(write.bits.doorbell);
            // a full FIFO leaves enq.ready low: the doorbell is not stored, nothing already stored moves
            Bool over = hit.andNot(q.enq.ready);
            overflowed.add(over);
            overflows.get(f).assign(Counters.count(over, "overflows" + f));
            heads.get(f).connect(q.deq);
            count.get(f).assign(q.count);
            valids.add(q.deq.valid);
        }
        nonEmpty.assign(fromBools(valids));
        refused.assign(bad.or(fromBools(overflowed).orR()));
        badFunction.assign(Counters.count(bad, "badFunctions"));
    }
}
