package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ArbiterTest {
    /**
     * Beats are 16 bits: [15:12] input, [11:4] packet number, [3:1] beat number, [0] last beat of the
     * packet, so the output stream shows where every beat came from.
     */
    static long beat(int input, int packet, int beat, boolean last) {
        return (long) input << 12 | (packet & 0xFF) << 4 | (beat & 7) << 1 | (last ? 1 : 0);
    }

    static int inputOf(BigInteger b) {
        return b.intValue() >> 12;
    }

    static final Supplier<UInt> BEAT = () -> UInt(16);

    /** Cycle-accurate model of ArbiterBase + the fixed or round-robin policy. */
    static final class Model {
        final int n;
        final boolean roundRobin;
        final int lockBeats; // 0: lock until bit 0 of the beat; 1: no lock; k: k-beat packets
        boolean locked;
        int lockedIdx;
        int lastGrant;
        int beatCount;

        Model(int n, boolean roundRobin, int lockBeats) {
            this.n = n;
            this.roundRobin = roundRobin;
            this.lockBeats = lockBeats;
            this.lastGrant = n - 1;
        }

        int pick(boolean[] valid) {
            if (locked) {
                return lockedIdx;
            }
            if (roundRobin) {
                for (int i = lastGrant + 1; i < n; i++) {
                    if (valid[i]) {
                        return i;
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                if (valid[i]) {
                    return i;
                }
            }
            return -1;
        }

        void clock(boolean[] valid, boolean ready, long[] bits) {
            int c = pick(valid);
            if (c < 0 || !valid[c]) {
                return;
            }
            boolean last = lockBeats == 0 ? (bits[c] & 1) != 0 : lockBeats == 1 || beatCount == lockBeats - 1;
            locked = !ready || !last;
            lockedIdx = c;
            if (ready) {
                lastGrant = c;
                beatCount = lockBeats > 1 ? (beatCount + 1) % lockBeats : 0;
            }
        }
    }

    /** Runs random traffic (packets of 1..4 beats, or lockBeats beats) and checks the DUT against the model every cycle. */
    static List<BigInteger> runAgainstModel(Simulator sim, boolean rr, int lockBeats,
            long seed, double validProb, double readyProb, int packetsPerInput) {
        ArbiterBase<UInt> a = top(sim);
        int n = a.n;
        Random rnd = new Random(seed);
        List<Streams.Source> srcs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Streams.Source s = new Streams.Source(sim, a.in.get(i), rnd, validProb);
            for (int p = 0; p < packetsPerInput; p++) {
                int len = lockBeats > 1 ? lockBeats : lockBeats == 1 ? 1 : 1 + rnd.nextInt(4);
                for (int b = 0; b < len; b++) {
                    s.add(beat(i, p, b, b == len - 1));
                }
            }
            srcs.add(s);
        }
        Streams.Sink sink = new Streams.Sink(sim, a.out, rnd, readyProb);
        int total = srcs.stream().mapToInt(s -> s.pending.size()).sum();
        Model m = new Model(n, rr, lockBeats);
        List<Streams.Endpoint> eps = new ArrayList<>(srcs);
        eps.add(sink);
        Streams.run(sim, 50L * total, () -> sink.received.size() == total, () -> {
            boolean[] valid = new boolean[n];
            long[] bits = new long[n];
            for (int i = 0; i < n; i++) {
                valid[i] = sim.peekBool(a.in.get(i).valid);
                bits[i] = sim.peek(a.in.get(i).bits);
            }
            boolean ready = sim.peekBool(a.out.ready);
            int c = m.pick(valid);
            String at = "cycle " + sim.cycle();
            boolean outValid = c >= 0 && valid[c];
            assertThat(sim.peekBool(a.out.valid)).as(at + " out.valid").isEqualTo(outValid);
            if (outValid) {
                assertThat(sim.peek(a.chosen)).as(at + " chosen").isEqualTo(c);
                assertThat(sim.peek(a.out.bits)).as(at + " out.bits").isEqualTo(bits[c]);
            }
            for (int i = 0; i < n; i++) {
                assertThat(sim.peekBool(a.in.get(i).ready)).as(at + " in(%d).ready", i).isEqualTo(ready && i == c);
            }
            m.clock(valid, ready, bits);
        }, eps.toArray(new Streams.Endpoint[0]));
        // nothing lost or duplicated, and each input's beats leave in order
        for (int i = 0; i < n; i++) {
            int input = i;
            assertThat(sink.received.stream().filter(b -> inputOf(b) == input).toList()).isEqualTo(srcs.get(i).sent);
        }
        return sink.received;
    }

    static Simulator arbiter(boolean rr, int n, Lock<UInt> lock) {
        Simulator sim = Simulator.of(() -> rr ? new RRArbiter<>(BEAT, n, lock) : new Arbiter<>(BEAT, n, lock));
        sim.reset();
        return sim;
    }

    @SuppressWarnings("unchecked")
    static ArbiterBase<UInt> top(Simulator sim) {
        return (ArbiterBase<UInt>) sim.circuit().top();
    }

    /** Packets arrive whole: once a packet starts, the next beats on the output are the rest of it. */
    static void assertPacketsContiguous(List<BigInteger> out) {
        int owner = -1;
        int expectBeat = 0;
        for (int k = 0; k < out.size(); k++) {
            long b = out.get(k).longValue();
            int input = (int) (b >> 12);
            int beatNo = (int) (b >> 1 & 7);
            if (owner >= 0) {
                assertThat(input).as("beat %d interleaved into a packet from input %d", k, owner).isEqualTo(owner);
            }
            assertThat(beatNo).as("beat %d", k).isEqualTo(expectBeat);
            boolean last = (b & 1) != 0;
            owner = last ? -1 : input;
            expectBeat = last ? 0 : expectBeat + 1;
        }
    }

    @ParameterizedTest(name = "roundRobin={0}")
    @ValueSource(booleans = {false, true})
    void matchesModelUnderRandomTrafficWithoutLock(boolean rr) {
        for (int n : new int[] {1, 2, 3, 5}) {
            Simulator sim = arbiter(rr, n, Lock.none());
            runAgainstModel(sim, rr, 1, 100 + n, 0.5, 0.6, 60);
        }
    }

    @ParameterizedTest(name = "roundRobin={0}")
    @ValueSource(booleans = {false, true})
    void beatCountLockKeepsPacketsWhole(boolean rr) {
        Simulator sim = arbiter(rr, 3, Lock.beats(4));
        List<BigInteger> out = runAgainstModel(sim, rr, 4, 11, 0.6, 0.5, 40);
        assertPacketsContiguous(out);
    }

    @ParameterizedTest(name = "roundRobin={0}")
    @ValueSource(booleans = {false, true})
    void lastBeatLockKeepsVariableLengthPacketsWhole(boolean rr) {
        Lock<UInt> lock = Lock.until(b -> b.bit(0));
        Simulator sim = arbiter(rr, 4, lock);
        List<BigInteger> out = runAgainstModel(sim, rr, 0, 12, 0.5, 0.5, 40);
        assertPacketsContiguous(out);
    }

    /** Every input always valid, output always ready: counts how many beats each input moved. */
    static int[] shares(boolean rr, int n, int cycles) {
        Simulator sim = arbiter(rr, n, Lock.none());
        ArbiterBase<UInt> a = top(sim);
        int[] count = new int[n];
        for (int i = 0; i < n; i++) {
            sim.poke(a.in.get(i).valid, 1);
        }
        sim.poke(a.out.ready, 1);
        for (int c = 0; c < cycles; c++) {
            count[(int) sim.peek(a.chosen)]++;
            sim.step();
        }
        return count;
    }

    @Test
    void fixedPriorityServesLowestIndexFirst() {
        assertThat(shares(false, 4, 100)).containsExactly(100, 0, 0, 0);
        Simulator sim = arbiter(false, 4, Lock.none());
        ArbiterBase<UInt> a = top(sim);
        sim.poke(a.out.ready, 1);
        sim.poke(a.in.get(3).valid, 1);
        sim.poke(a.in.get(2).valid, 1);
        assertThat(sim.peek(a.chosen)).isEqualTo(2);
        sim.poke(a.in.get(1).valid, 1);
        assertThat(sim.peek(a.chosen)).isEqualTo(1);
        sim.poke(a.in.get(1).valid, 0);
        sim.poke(a.in.get(2).valid, 0);
        assertThat(sim.peek(a.chosen)).isEqualTo(3);
        assertThat(sim.peekBool(a.in.get(3).ready)).isTrue();
    }

    @Test
    void roundRobinGivesEqualSharesAndRotates() {
        assertThat(shares(true, 5, 500)).containsOnly(100);
        Simulator sim = arbiter(true, 3, Lock.none());
        ArbiterBase<UInt> a = top(sim);
        sim.poke(a.out.ready, 1);
        for (int i = 0; i < 3; i++) {
            sim.poke(a.in.get(i).valid, 1);
        }
        List<Long> order = new ArrayList<>();
        for (int c = 0; c < 7; c++) {
            order.add(sim.peek(a.chosen));
            sim.step();
        }
        assertThat(order).containsExactly(0L, 1L, 2L, 0L, 1L, 2L, 0L);
    }

    @Test
    void roundRobinNeverStarvesAnInputUnderRandomBackpressure() {
        int n = 4;
        Simulator sim = arbiter(true, n, Lock.none());
        ArbiterBase<UInt> a = top(sim);
        Random rnd = new Random(9);
        for (int i = 0; i < n; i++) {
            sim.poke(a.in.get(i).valid, 1);
        }
        int[] sinceLast = new int[n];
        for (int c = 0; c < 2000; c++) {
            boolean ready = rnd.nextInt(3) == 0;
            sim.poke(a.out.ready, ready);
            if (ready) {
                int g = (int) sim.peek(a.chosen);
                for (int i = 0; i < n; i++) {
                    sinceLast[i] = i == g ? 0 : sinceLast[i] + 1;
                    assertThat(sinceLast[i]).as("input %d waited for more than n-1 other grants", i).isLessThan(n);
                }
            }
            sim.step();
        }
    }

    @Test
    void stalledOutputKeepsItsChoiceWhenAHigherPriorityInputArrives() {
        Simulator sim = arbiter(false, 2, Lock.none());
        ArbiterBase<UInt> a = top(sim);
        sim.poke(a.in.get(1).valid, 1);
        sim.poke(a.in.get(1).bits, 0x1111);
        sim.poke(a.out.ready, 0);
        sim.step();
        sim.poke(a.in.get(0).valid, 1);
        sim.poke(a.in.get(0).bits, 0x0000);
        assertThat(sim.peek(a.chosen)).isEqualTo(1);
        assertThat(sim.peek(a.out.bits)).isEqualTo(0x1111);
        sim.poke(a.out.ready, 1);
        assertThat(sim.peekBool(a.in.get(1).ready)).isTrue();
        sim.step();
        assertThat(sim.peek(a.chosen)).as("free again: priority applies").isZero();
    }
}
