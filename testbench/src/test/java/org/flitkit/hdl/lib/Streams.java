package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.sim.Simulator;

/**
 * Test-side drivers for the Decoupled ports of a simulated top: a source with random valid gaps that
 * obeys the handshake rules, and a sink with random backpressure that checks the DUT obeys them too.
 * Per cycle: {@code drive()} every endpoint, then {@code sample()} every endpoint, then step.
 */
final class Streams {
    private Streams() {
    }

    /** One side of a stream handled by the testbench. */
    interface Endpoint {
        /** pokes this cycle's inputs */
        void drive();

        /** after every endpoint drove: records what moved */
        boolean sample();
    }

    /**
     * Runs cycles (drive all, sample all, {@code check}, step) until {@code done} holds; fails after
     * {@code maxCycles}. Returns the cycles taken.
     */
    static long run(Simulator sim, long maxCycles, java.util.function.BooleanSupplier done, Runnable check, Endpoint... eps) {
        long start = sim.cycle();
        while (!done.getAsBoolean()) {
            assertThat(sim.cycle() - start).as("timed out after %d cycles", maxCycles).isLessThan(maxCycles);
            for (Endpoint e : eps) {
                e.drive();
            }
            for (Endpoint e : eps) {
                e.sample();
            }
            check.run();
            sim.step();
        }
        return sim.cycle() - start;
    }

    static long run(Simulator sim, long maxCycles, java.util.function.BooleanSupplier done, Endpoint... eps) {
        return run(sim, maxCycles, done, () -> { }, eps);
    }

    static Bits leaf(Data bits) {
        assertThat(bits.leaves()).hasSize(1);
        return bits.leaves().get(0);
    }

    /** Drives a consumer-side port (valid, bits) of the top from a list of values. */
    static final class Source implements Endpoint {
        final Simulator sim;
        final Decoupled<?> port;
        final Random rnd;
        final double validProb;
        final Deque<BigInteger> pending = new ArrayDeque<>();
        final List<BigInteger> sent = new ArrayList<>();
        private boolean offering;
        private boolean fired;

        Source(Simulator sim, Decoupled<?> port, Random rnd, double validProb) {
            this.sim = sim;
            this.port = port;
            this.rnd = rnd;
            this.validProb = validProb;
        }

        Source add(BigInteger v) {
            pending.add(v);
            return this;
        }

        Source add(long v) {
            return add(BigInteger.valueOf(v));
        }

        /** Decides valid for this cycle: once offered, an element stays offered until it fires. */
        @Override
        public void drive() {
            if (!offering && !pending.isEmpty() && rnd.nextDouble() < validProb) {
                offering = true;
            }
            sim.poke(port.valid, offering);
            sim.poke(leaf(port.bits), offering ? pending.peek() : BigInteger.ZERO);
        }

        /** After all drives: did the element move? */
        @Override
        public boolean sample() {
            fired = offering && sim.peekBool(port.ready);
            if (fired) {
                sent.add(pending.poll());
                offering = false;
            }
            return fired;
        }

        boolean fired() {
            return fired;
        }

        boolean done() {
            return pending.isEmpty() && !offering;
        }
    }

    /** Drives ready of a producer-side port of the top, collects what fires and checks the hold rule. */
    static final class Sink implements Endpoint {
        final Simulator sim;
        final Decoupled<?> port;
        final Random rnd;
        double readyProb;
        final List<BigInteger> received = new ArrayList<>();
        private boolean ready;
        private boolean fired;
        /** what the DUT offered last cycle without it being taken: it must still offer exactly that */
        private BigInteger stalled;

        Sink(Simulator sim, Decoupled<?> port, Random rnd, double readyProb) {
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
        public boolean sample() {
            boolean valid = sim.peekBool(port.valid);
            BigInteger bits = sim.peekBig(leaf(port.bits));
            if (stalled != null) {
                assertThat(valid).as("cycle %d: %s.valid dropped before the element was taken", sim.cycle(), port.path()).isTrue();
                assertThat(bits).as("cycle %d: %s.bits changed while stalled", sim.cycle(), port.path()).isEqualTo(stalled);
            }
            fired = valid && ready;
            stalled = valid && !ready ? bits : null;
            if (fired) {
                received.add(bits);
            }
            return fired;
        }

        boolean fired() {
            return fired;
        }
    }

    /** Random words of {@code width} bits. */
    static List<BigInteger> randomWords(Random rnd, int n, int width) {
        List<BigInteger> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new BigInteger(width, rnd));
        }
        return out;
    }
}
