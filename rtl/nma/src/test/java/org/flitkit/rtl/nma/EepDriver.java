package org.flitkit.rtl.nma;

import java.math.BigInteger;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.ManagementPacket;

/** Sends request packets to an {@link EepHarness} and collects the responses, with cycle budgets. */
final class EepDriver {
    /** A response and the cycles from the request's acceptance to the response's first valid cycle. */
    record Result(BitVector bits, long latency) {
        ManagementPacket packet() {
            return ManagementPacket.parse(bits);
        }
    }

    final Simulator sim;
    final EepHarness b;
    long budget;

    EepDriver(Simulator sim, String vcdName, long budget) {
        this.sim = sim;
        this.b = (EepHarness) sim.circuit().top();
        this.budget = budget;
        Waves.maybeStart(sim, vcdName, Waves.periodPs(b.params));
        sim.poke(b.chipId, 0x0102);
        sim.reset();
    }

    Result send(ManagementPacket req) {
        return send(req.toBits());
    }

    Result send(BitVector req) {
        sim.poke(b.req.bits, req.toBigInteger());
        sim.poke(b.req.valid, 1);
        sim.runUntil(() -> sim.peekBool(b.req.ready), budget);
        sim.step();
        long accepted = sim.cycle();
        sim.poke(b.req.valid, 0);
        sim.poke(b.req.bits, BigInteger.ZERO);
        sim.runUntil(() -> sim.peekBool(b.rsp.valid), budget);
        long latency = sim.cycle() - accepted;
        BitVector out = TestPackets.bits(sim.peekBig(b.rsp.bits));
        sim.poke(b.rsp.ready, 1);
        sim.step();
        sim.poke(b.rsp.ready, 0);
        return new Result(out, latency);
    }
}
