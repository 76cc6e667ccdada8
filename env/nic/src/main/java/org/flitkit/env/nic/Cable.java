package org.flitkit.env.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;

/**
 * One direction of a cable between two chips' link ports, as a board-level cycle model: a flit accepted at
 * cycle t is offered at the far end at t + {@code latency}; the far end's buffer has room for everything in
 * flight (credits), so a stalled receiver stops the sender and nothing is lost. One flit per cycle.
 * docs/th2-nic.md, "End to end".
 */
public final class Cable extends Module {
    public final Decoupled<UInt> in;
    public final Decoupled<UInt> out;
    /** Bits to flip in the flit entering this cycle (bit errors injected by a testbench; 0 = none). */
    public final UInt flip;
    /** No flit in flight or waiting at the far end. */
    public final Bool idle;
    public final int latency;

    public Cable(int width, int latency) {
        if (latency < 1 || latency > 10_000) {
            throw new IllegalArgumentException("cable latency must be 1..10000 cycles, got " + latency);
        }
        this.latency = latency;
        in = input(Decoupled.of(UInt(width)));
        out = output(Decoupled.of(UInt(width)));
        flip = input(UInt(width));
        idle = output(Bool());
        int depth = latency + 2;
        Queue<UInt> far = instance(new Queue<>(() -> UInt(width), depth));
        // the far end's buffer counts flits in flight: a flit is only sent when it will have a place
        UInt inFlight = regInit(UInt(32), 0).named("inFlight");
        Bool arrive = in.fire();
        UInt data = in.bits.xor(flip);
        for (int i = 1; i < latency; i++) {
            Bool v = regInit(Bool(), 0).named("v" + i);
            UInt d = reg(UInt(width)).named("d" + i);
            v.assign(arrive);
            UInt dd = data;
            when(arrive, () -> d.assign(dd));
            arrive = v;
            data = d;
        }
        in.ready.assign(inFlight.add(far.count.pad(32)).lt(depth));
        UInt plus = mux(in.fire(), lit(1, 32), lit(0, 32));
        UInt minus = mux(arrive, lit(1, 32), lit(0, 32));
        inFlight.assign(inFlight.add(plus).sub(minus));
        far.enq.valid.assign(arrive);
        far.enq.bits.assign(data);
        check(arrive.not().or(far.enq.ready), "cable buffer overflow: a flit arrived with no room");

        out.connect(far.deq);
        idle.assign(inFlight.eq(0).and(far.count.eq(0)));
    }
}
