package org.flitkit.rtl.nrc;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.sim.SimTimeoutException;
import org.flitkit.hdl.sim.Simulator;

/**
 * Unit-test drivers for Decoupled ports of a simulated block (rtl/nrc cannot depend on the testbench
 * module, which depends on it): a source holding each element until taken, a sink with optional random
 * backpressure recording what moved and when. Payloads are packed like {@code Bundle.asUInt()}.
 */
final class Ports {
    private Ports() {
    }

    interface Endpoint {
        void drive();

        void sample();
    }

    /** Runs drive/sample/step until {@code done}; throws after {@code max} cycles. Returns cycles taken. */
    static long run(Simulator sim, long max, BooleanSupplier done, List<? extends Endpoint> eps) {
        long start = sim.cycle();
        while (!done.getAsBoolean()) {
            if (sim.cycle() - start >= max) {
                throw new SimTimeoutException("not done within " + max + " cycles", sim.cycle());
            }
            for (Endpoint e : eps) {
                e.drive();
            }
            for (Endpoint e : eps) {
                e.sample();
            }
            sim.step();
        }
        return sim.cycle() - start;
    }

    static BigInteger peek(Simulator sim, Data payload) {
        BigInteger v = BigInteger.ZERO;
        for (Bits f : payload.leaves()) {
            v = v.shiftLeft(f.width()).or(sim.peekBig(f));
        }
        return v;
    }

    static void poke(Simulator sim, Data payload, BigInteger value) {
        List<Bits> fs = payload.leaves();
        int lo = fs.stream().mapToInt(Bits::width).sum();
        for (Bits f : fs) {
            lo -= f.width();
            sim.poke(f, value.shiftRight(lo).and(BigInteger.ONE.shiftLeft(f.width()).subtract(BigInteger.ONE)));
        }
    }

    /** Feeds an input stream of the top. */
    static final class Source implements Endpoint {
        final Simulator sim;
        final Decoupled<?> port;
        final Deque<BigInteger> pending = new ArrayDeque<>();
        final List<Long> takenAt = new ArrayList<>();
        private boolean offering;

        Source(Simulator sim, Decoupled<?> port) {
            this.sim = sim;
            this.port = port;
        }

        Source add(BigInteger v) {
            pending.add(v);
            return this;
        }

        Source addAll(List<BigInteger> vs) {
            pending.addAll(vs);
            return this;
        }

        @Override
        public void drive() {
            offering = !pending.isEmpty();
            sim.poke(port.valid, offering);
            if (offering) {
                poke(sim, port.bits, pending.peek());
            }
        }

        @Override
        public void sample() {
            if (offering && sim.peekBool(port.ready)) {
                pending.poll();
                takenAt.add(sim.cycle());
            }
        }

        boolean done() {
            return pending.isEmpty();
        }
    }

    /** Takes an output stream of the top; checks that an offered element holds until taken. */
    static final class Sink implements Endpoint {
        final Simulator sim;
        final Decoupled<?> port;
        final Random rnd;
        final double readyProb;
        final List<BigInteger> got = new ArrayList<>();
        final List<Long> at = new ArrayList<>();
        private boolean ready;
        private BigInteger stalled;

        Sink(Simulator sim, Decoupled<?> port) {
            this(sim, port, null, 1.0);
        }

        Sink(Simulator sim, Decoupled<?> port, Random rnd, double readyProb) {
            this.sim = sim;
            this.port = port;
            this.rnd = rnd;
            this.readyProb = readyProb;
        }

        @Override
        public void drive() {
            ready = rnd == null || rnd.nextDouble() < readyProb;
            sim.poke(port.ready, ready);
        }

        @Override
        public void sample() {
            if (!sim.peekBool(port.valid)) {
                if (stalled != null) {
                    throw new AssertionError(port.valid.path() + ": valid dropped while stalled at cycle " + sim.cycle());
                }
                return;
            }
            BigInteger v = peek(sim, port.bits);
            if (stalled != null && !stalled.equals(v)) {
                throw new AssertionError(port.valid.path() + ": bits changed while stalled at cycle " + sim.cycle());
            }
            if (ready) {
                got.add(v);
                at.add(sim.cycle());
                stalled = null;
            } else {
                stalled = v;
            }
        }
    }
}
