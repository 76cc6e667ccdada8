package org.flitkit.testbench.example;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;

/** Adds one to every value of a 16-bit stream, through a two-entry queue. (The README's example.) */
public class AddOne extends Module {
    public final Decoupled<UInt> in = input(Decoupled.of(UInt(16)));
    public final Decoupled<UInt> out = output(Decoupled.of(UInt(16)));
    public final Queue<UInt> stage = instance(new Queue<>(() -> UInt(16), 2));

    public AddOne() {
        stage.enq.valid.assign(in.valid);
        stage.enq.bits.assign(in.bits.add(1)); // wraps at 16 bits, like Chisel's +
        in.ready.assign(stage.enq.ready);
        out.connect(stage.deq);
    }
}
