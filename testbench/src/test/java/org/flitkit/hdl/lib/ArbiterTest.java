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
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.FrameSource;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.packet.PacketCodec;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(TestbenchExtension.class)
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

    /**
     * Cycle-accurate model of ArbiterBase + the fixed or round-robin policy, checked against the design
     * on every cycle after all drivers have driven (out.valid, chosen, out.bits, every in.ready), then
     * clocked.
     */
    static final class Model extends Component {
        final ArbiterBase<UInt> a;
        final int n;
        final boolean roundRobin;
        final int lockBeats; // 0: lock until bit 0 of the beat; 1: no lock; k: k-beat packets
        boolean locked;
        int lockedIdx;
        int lastGrant;
        int beatCount;

        Model(ArbiterBase<UInt> a, boolean roundRobin, int lockBeats) {
            super("model");
            this.a = a;
            this.n = a.n;
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

        @Override
        protected void sample() {
            boolean[] valid = new boolean[n];
            long[] bits = new long[n];
            for (int i = 0; i < n; i++) {
                valid[i] = sim().peekBool(a.in.get(i).valid);
                bits[i] = sim().peek(a.in.get(i).bits);
            }
            boolean ready = sim().peekBool(a.out.ready);
            int c = pick(valid);
            boolean outValid = c >= 0 && valid[c];
            checkEqual("out.valid", outValid, sim().peekBool(a.out.valid));
            if (outValid) {
                checkEqual("chosen", (long) c, sim().peek(a.chosen));
                checkEqual("out.bits", bits[c], sim().peek(a.out.bits));
            }
            for (int i = 0; i < n; i++) {
                checkEqual("in(" + i + ").ready", ready && i == c, sim().peekBool(a.in.get(i).ready));
            }
            if (!outValid) {
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

    /**
     * Random traffic (packets of 1..4 beats, or lockBeats beats; one beat without a lock) from every
     * input with random valid gaps, random backpressure on the output, the model checked every cycle.
     * Packets are framed by their last-beat bit on every input and on the output, and matched per input
     * on a scoreboard: nothing lost or duplicated, each input's packets in order, and every packet whole
     * on the output (a beat of another input inside a packet breaks its match).
     */
    static void runAgainstModel(boolean rr, int n, Lock<UInt> lock, int lockBeats, RunConfig cfg,
            double validProb, double readyProb, int packetsPerInput) {
        try (Testbench<ArbiterBase<UInt>> tb = Testbench.create(() -> rr ? new RRArbiter<>(BEAT, n, lock) : new Arbiter<>(BEAT, n, lock),
                cfg)) {
            ArbiterBase<UInt> a = tb.dut();
            OutOfOrderScoreboard<Integer, List<BigInteger>> scoreboard = tb.add(new OutOfOrderScoreboard<>("scoreboard",
                    p -> inputOf(p.get(0))));
            Rng lengths = tb.rng("lengths");
            for (int i = 0; i < n; i++) {
                StreamPort in = StreamPort.of(a.in.get(i));
                FrameSource<List<BigInteger>> source = tb.add(new FrameSource<>("source" + i, in, PacketCodec.beats())
                        .beatGaps(Throttle.random(validProb)));
                tb.add(new FrameMonitor<>("in_monitor" + i, in, Framing.lastBit(0), PacketCodec.beats()).subscribe(scoreboard::expect));
                for (int p = 0; p < packetsPerInput; p++) {
                    int len = lockBeats > 1 ? lockBeats : lockBeats == 1 ? 1 : 1 + lengths.nextInt(4);
                    List<BigInteger> packet = new ArrayList<>();
                    for (int b = 0; b < len; b++) {
                        packet.add(BigInteger.valueOf(beat(i, p, b, b == len - 1)));
                    }
                    source.send(packet);
                }
            }
            StreamPort out = StreamPort.of(a.out);
            tb.add(new StreamSink("sink", out).backpressure(Throttle.random(readyProb)));
            tb.add(new FrameMonitor<>("out_monitor", out, Framing.lastBit(0), PacketCodec.beats()).checkHoldEveryCycle()
                    .subscribe(scoreboard::observe));
            tb.add(new Model(a, rr, lockBeats));
            tb.reset(1);
            long total = (long) n * packetsPerInput;
            tb.runUntil(total + " packets through", () -> scoreboard.matched() == total, 200L * total);
            tb.finish();
        }
    }

    @ParameterizedTest(name = "roundRobin={0}")
    @ValueSource(booleans = {false, true})
    void matchesModelUnderRandomTrafficWithoutLock(boolean rr, RunConfig cfg) {
        for (int n : new int[] {1, 2, 3, 5}) {
            runAgainstModel(rr, n, Lock.none(), 1, cfg, 0.5, 0.6, 60);
        }
    }

    @ParameterizedTest(name = "roundRobin={0}")
    @ValueSource(booleans = {false, true})
    void beatCountLockKeepsPacketsWhole(boolean rr, RunConfig cfg) {
        runAgainstModel(rr, 3, Lock.beats(4), 4, cfg, 0.6, 0.5, 40);
    }

    @ParameterizedTest(name = "roundRobin={0}")
    @ValueSource(booleans = {false, true})
    void lastBeatLockKeepsVariableLengthPacketsWhole(boolean rr, RunConfig cfg) {
        runAgainstModel(rr, 4, Lock.until(b -> b.bit(0)), 0, cfg, 0.5, 0.5, 40);
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
