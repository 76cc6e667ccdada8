package org.flitkit.rtl.nma;

import java.nio.file.Path;
import org.flitkit.hdl.sim.Simulator;

/** Drives the command port of an {@link I2cHarness} and feeds an {@link I2cMonitor} every cycle. */
final class I2cDriver {
    record Rsp(int data, boolean ack) {
    }

    final Simulator sim;
    final I2cHarness b;
    final I2cMonitor mon = new I2cMonitor();
    long budget = 100_000;

    I2cDriver(Simulator sim) {
        this.sim = sim;
        this.b = (I2cHarness) sim.circuit().top();
        Waves.maybeStart(sim, "i2c", Waves.periodPs(b.params));
        sim.reset();
        sample();
    }

    void sample() {
        mon.sample(sim.cycle(), sim.peekBool(b.scl), sim.peekBool(b.sda));
    }

    void step() {
        sim.step();
        sample();
    }

    void steps(long n) {
        for (long i = 0; i < n; i++) {
            step();
        }
    }

    /** Steps until {@code cond} holds, sampling the bus every cycle; fails after {@link #budget} cycles. */
    void until(java.util.function.BooleanSupplier cond) {
        long start = sim.cycle();
        while (!cond.getAsBoolean()) {
            if (sim.cycle() - start > budget) {
                throw new AssertionError("condition not met within " + budget + " cycles at cycle " + sim.cycle());
            }
            step();
        }
    }

    Rsp cmd(int op, int data, boolean ack) {
        sim.poke(b.cmd.valid, 1);
        sim.poke(b.cmd.bits.op, op);
        sim.poke(b.cmd.bits.data, data);
        sim.poke(b.cmd.bits.ack, ack);
        until(() -> sim.peekBool(b.cmd.ready));
        step();
        sim.poke(b.cmd.valid, 0);
        sim.poke(b.rsp.ready, 1);
        until(() -> sim.peekBool(b.rsp.valid));
        Rsp r = new Rsp((int) sim.peek(b.rsp.bits.data), sim.peekBool(b.rsp.bits.ack));
        step();
        sim.poke(b.rsp.ready, 0);
        return r;
    }

    void start() {
        cmd(I2cMaster.OP_START, 0, false);
    }

    void stop() {
        cmd(I2cMaster.OP_STOP, 0, false);
    }

    boolean write(int data) {
        return cmd(I2cMaster.OP_WRITE, data, false).ack();
    }

    int read(boolean ack) {
        return cmd(I2cMaster.OP_READ, 0, ack).data();
    }

    void close() {
        sim.stopVcd();
    }

    static Path vcdDir() {
        return Waves.dir();
    }
}
