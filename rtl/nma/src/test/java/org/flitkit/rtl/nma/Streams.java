package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.flitkit.hdl.sim.Simulator;

/**
 * Testbench drivers for Decoupled packet ports: a source with random valid gaps that holds what it
 * offers, and a sink with random backpressure that checks the DUT holds valid and bits while stalled.
 * Each cycle: drive() all, sample() all, check, step. Records the cycle of every transfer for latency.
 */
public final class Streams {
    private Streams() {
    }

    public interface Endpoint {
        void drive();

        void sample();
    }

    /** Runs cycles until {@code done}; fails after {@code maxCycles}. Returns the cycles taken. */
    public static long run(Simulator sim, long maxCycles, BooleanSupplier done, Runnable perCycle, Endpoint... eps) {
        long start = sim.cycle();
        while (!done.getAsBoolean()) {
            assertThat(sim.cycle() - start).as("timed out after %d cycles", maxCycles).isLessThan(maxCycles);
            for (Endpoint e : eps) {
                e.drive();
            }
            perCycle.run();
            for (Endpoint e : eps) {
                e.sample();
            }
            sim.step();
        }
        return sim.cycle() - start;
    }

    public static long run(Simulator sim, long maxCycles, BooleanSupplier done, Endpoint... eps) {
        return run(sim, maxCycles, done, () -> { }, eps);
    }

    static Bits leaf(Data bits) {
        assertThat(bits.leaves()).hasSize(1);
        return bits.leaves().get(0);
    }

    /** Drives a consumer-side port of the DUT. */
    public static final class Source implements Endpoint {
        final Simulator sim;
        final Decoupled<?> port;
        final Random rnd;
        public double validProb;
        public final Deque<BigInteger> pending = new ArrayDeque<>();
        /** cycle at which each element was taken */
        public final List<Long> firedAt = new ArrayList<>();
        private boolean offering;

        public Source(Simulator sim, Decoupled<?> port, Random rnd, double validProb) {
            this.sim = sim;
            this.port = port;
            this.rnd = rnd;
            this.validProb = validProb;
        }

        public Source add(BigInteger v) {
            pending.add(v);
            return this;
        }

        @Override
        public void drive() {
            if (!offering && !pending.isEmpty() && rnd.nextDouble() < validProb) {
                offering = true;
            }
            sim.poke(port.valid, offering);
            sim.poke(leaf(port.bits), offering ? pending.peek() : BigInteger.ZERO);
        }

        @Override
        public void sample() {
            if (offering && sim.peekBool(port.ready)) {
                pending.poll();
                firedAt.add(sim.cycle());
                offering = false;
            }
        }

        public boolean done() {
            return pending.isEmpty() && !offering;
        }
    }

    /** Drives ready of a producer-side port, collects what fires and checks the hold rule. */
    public static final class Sink implements Endpoint {
        final Simulator sim;
        final Decoupled<?> port;
        final Random rnd;
        public double readyProb;
        public final List<BigInteger> received = new ArrayList<>();
        public final List<Long> firedAt = new ArrayList<>();
        /** cycle at which each received element was first offered */
        public final List<Long> offeredAt = new ArrayList<>();
        private boolean ready;
        private BigInteger stalled;
        private long stalledSince;

        public Sink(Simulator sim, Decoupled<?> port, Random rnd, double readyProb) {
            this.sim = sim;
            this.port = port;
            this.rnd = rnd;
            this.readyProb = readyProb;
        }

        @Override
        public void drive() {
            ready = rnd.nextDouble() < readyProb;
            sim.poke(port.ready, ready);
        }

        @Override
        public void sample() {
            boolean valid = sim.peekBool(port.valid);
            BigInteger bits = sim.peekBig(leaf(port.bits));
            if (stalled != null) {
                assertThat(valid).as("cycle %d: %s.valid dropped before the element was taken", sim.cycle(), port.path()).isTrue();
                assertThat(bits).as("cycle %d: %s.bits changed while stalled", sim.cycle(), port.path()).isEqualTo(stalled);
            }
            long since = stalled != null ? stalledSince : sim.cycle();
            if (valid && ready) {
                received.add(bits);
                firedAt.add(sim.cycle());
                offeredAt.add(since);
                stalled = null;
            } else if (valid) {
                stalled = bits;
                stalledSince = since;
            } else {
                stalled = null;
            }
        }
    }
}
