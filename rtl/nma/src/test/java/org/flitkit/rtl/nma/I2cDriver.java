package org.flitkit.rtl.nma;

import java.util.function.BooleanSupplier;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * Drives the command port of an {@link I2cHarness} one command at a time, in a testbench whose
 * {@link I2cMonitor} sees the bus lines every cycle. Tests may poke the harness's inputs between calls
 * (stuck lines, a held command, abort): no stream driver owns them.
 */
final class I2cDriver implements AutoCloseable {
    record Rsp(int data, boolean ack) {
    }

    final Testbench<I2cHarness> tb;
    final Simulator sim;
    final I2cHarness dut;
    final I2cMonitor mon = new I2cMonitor();
    /** Cycles to wait for a command to be taken or answered. */
    long budget = 100_000;

    /** A harness with master and 24xx512 model at timing {@code p}, E2PROM preloaded with {@code image}, after reset. */
    I2cDriver(RunConfig cfg, EepParams p, byte[] image) {
        tb = Runs.atCoreClock(() -> new I2cHarness(p, image), cfg, p);
        sim = tb.sim();
        dut = tb.dut();
        tb.add(new Component("i2c_monitor") {
            @Override
            protected void sample() {
                mon.sample(cycle(), sim().peekBool(dut.scl), sim().peekBool(dut.sda));
            }
        });
        tb.reset(1);
    }

    void step() {
        tb.run(1);
    }

    void steps(long n) {
        tb.run(n);
    }

    /** Steps until {@code cond} holds; fails after {@link #budget} cycles. */
    void until(String what, BooleanSupplier cond) {
        tb.runUntil(what, cond, budget);
    }

    Rsp cmd(int op, int data, boolean ack) {
        sim.poke(dut.cmd.valid, 1);
        sim.poke(dut.cmd.bits.op, op);
        sim.poke(dut.cmd.bits.data, data);
        sim.poke(dut.cmd.bits.ack, ack);
        until("the master to take command " + op, () -> sim.peekBool(dut.cmd.ready));
        step();
        sim.poke(dut.cmd.valid, 0);
        sim.poke(dut.rsp.ready, 1);
        until("the response to command " + op, () -> sim.peekBool(dut.rsp.valid));
        Rsp r = new Rsp((int) sim.peek(dut.rsp.bits.data), sim.peekBool(dut.rsp.bits.ack));
        step();
        sim.poke(dut.rsp.ready, 0);
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

    @Override
    public void close() {
        tb.close();
    }
}
