package org.flitkit.rtl.chpp.send;

import org.flitkit.hdl.lib.Valid;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Rng;

/** A doorbell as the tests see it: its function and its {@link Doorbell} fields; pokes and peeks them. */
record Db(int function, long addr, int length, int qp) {

    /** A random doorbell of {@code function}: a 16-byte-aligned 64-bit address, 1..4096 bytes, one of 4 QPs. */
    static Db random(Rng rng, int function) {
        return new Db(function, rng.nextLong() & ~0xfL, 1 + rng.nextInt(Doorbell.MAX_LENGTH), rng.nextInt(4));
    }

    /** Offers this doorbell on a write port this cycle. */
    void poke(Simulator sim, Valid<FunctionDoorbell> write) {
        sim.poke(write.valid, 1);
        sim.poke(write.bits.function, function);
        poke(sim, write.bits.doorbell);
    }

    void poke(Simulator sim, Doorbell d) {
        sim.poke(d.addr, addr);
        sim.poke(d.length, length);
        sim.poke(d.qp, qp);
    }

    static void idle(Simulator sim, Valid<FunctionDoorbell> write) {
        sim.poke(write.valid, 0);
    }

    static Db peek(Simulator sim, int function, Doorbell d) {
        return new Db(function, sim.peek(d.addr), (int) sim.peek(d.length), (int) sim.peek(d.qp));
    }

    static Db peek(Simulator sim, FunctionDoorbell fd) {
        return peek(sim, (int) sim.peek(fd.function), fd.doorbell);
    }
}
