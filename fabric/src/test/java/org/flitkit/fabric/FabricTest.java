package org.flitkit.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fabric's semantics: link latency and credits to the cycle, and sleeping chips plus time jumps
 * giving exactly what stepping every chip every cycle gives, on random systems, whatever the thread
 * count and with a chip dumping waves.
 */
class FabricTest {
    static final int W = 70;

    /**
     * A small chip: two queues between two stream inputs and two stream outputs (the first XORs a
     * host-set key into its flits, the second the last flit of the first and a count of its timer's ticks), a
     * count of flits taken that hosts read, and a free-running cycle counter. The timer ticks every 128
     * cycles whether the chip is busy or not: a sleeping chip wakes for it.
     */
    static final class Relay extends Module {
        final Decoupled<UInt> in0 = input(Decoupled.of(UInt(W)));
        final Decoupled<UInt> in1 = input(Decoupled.of(UInt(W)));
        final Decoupled<UInt> out0 = output(Decoupled.of(UInt(W)));
        final Decoupled<UInt> out1 = output(Decoupled.of(UInt(W)));
        final UInt key = input(UInt(8));
        final UInt taken = output(UInt(16));
        final UInt ticks = output(UInt(32));
        final UInt beats = output(UInt(8));

        Relay() {
            Queue<UInt> q0 = instance(new Queue<>(() -> UInt(W), 3));
            Queue<UInt> q1 = instance(new Queue<>(() -> UInt(W), 2));
            q0.enq.connect(in0);
            q1.enq.connect(in1);
            UInt last = regInit(UInt(W), 0).named("last");
            when(q0.deq.fire(), () -> last.assign(q0.deq.bits));
            out0.valid.assign(q0.deq.valid);
            out0.bits.assign(q0.deq.bits.xor(key.pad(W)));
            q0.deq.ready.assign(out0.ready);
            out1.valid.assign(q1.deq.valid);
            UInt timer = regInit(UInt(7), 0).named("timer");
            timer.assign(timer.add(1));
            UInt beat = regInit(UInt(8), 0).named("beat");
            when(timer.eq(100), () -> beat.assign(beat.add(1)));
            beats.assign(beat);
            out1.bits.assign(q1.deq.bits.xor(last).xor(beat.pad(W)));
            q1.deq.ready.assign(out1.ready);
            UInt count = regInit(UInt(16), 0).named("count");
            when(in0.fire().or(in1.fire()), () -> count.assign(count.add(1)));
            taken.assign(count);
            UInt cycles = regInit(UInt(32), 0).named("cycles");
            cycles.assign(cycles.add(1));
            ticks.assign(cycles);
        }
    }

    static Simulator relaySim() {
        Simulator s = Simulator.of(Relay::new);
        s.reset(1);
        return s;
    }

    static long[] flit(SplittableRandom rng) {
        return new long[] {rng.nextLong(), rng.nextLong() & ((1L << (W - 64)) - 1)};
    }

    static String hex(long[] f) {
        return Long.toHexString(f[1]) + ":" + Long.toHexString(f[0]);
    }

    /** What a run shows: every transfer and host read in order, every chip's every signal at the end, and the effort. */
    record Run(List<String> trace, List<String> state, long evaluations, long processed) {
    }

    /**
     * A random system of {@code n} relays: a random subset of output-to-input pairs linked with random
     * latency and depth, the other inputs fed by sources and outputs drained by sinks, and one host that
     * at random times (bursts and long pauses) sends flits, throttles sinks, changes keys and reads
     * counters.
     */
    static Run randomSystem(long seed, int n, long cycles, boolean exhaustive, int threads, Path vcd) {
        SplittableRandom topo = new SplittableRandom(seed);
        Simulator proto = relaySim();
        List<String> trace = new ArrayList<>();
        try (Fabric f = new Fabric().exhaustive(exhaustive).threads(threads, 1)) {
            f.observe((c, ch, into, fl) -> trace.add(c + " " + ch + (into ? " in " : " out ") + hex(fl)));
            List<Chip> chips = new ArrayList<>();
            List<Relay> tops = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                chips.add(f.chip("c" + i, i == 0 ? proto : proto.fork()));
                tops.add((Relay) proto.circuit().top());
            }
            List<int[]> outs = new ArrayList<>();
            List<int[]> ins = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                for (int p = 0; p < 2; p++) {
                    outs.add(new int[] {i, p});
                    ins.add(new int[] {i, p});
                }
            }
            Collections.shuffle(outs, new java.util.Random(topo.nextLong()));
            Collections.shuffle(ins, new java.util.Random(topo.nextLong()));
            List<Source> sources = new ArrayList<>();
            List<Sink> sinks = new ArrayList<>();
            for (int k = 0; k < outs.size(); k++) {
                int[] o = outs.get(k);
                int[] in = ins.get(k);
                Relay r = tops.get(0);
                Decoupled<UInt> op = o[1] == 0 ? r.out0 : r.out1;
                Decoupled<UInt> ip = in[1] == 0 ? r.in0 : r.in1;
                if (topo.nextInt(10) < 6) {
                    CableChannel l = f.link(chips.get(o[0]), op, chips.get(in[0]), ip).latency(1 + topo.nextInt(4));
                    if (topo.nextBoolean()) {
                        l.depth(1 + topo.nextInt(3));
                    }
                } else {
                    sources.add(f.source(chips.get(in[0]), ip));
                    sinks.add(f.sink(chips.get(o[0]), op, (c, fl) -> { }));
                }
            }
            if (vcd != null) {
                f.startVcd(chips.get(0), vcd, 10_000);
            }
            Relay r = tops.get(0);
            SplittableRandom rng = new SplittableRandom(seed * 31 + 7);
            f.host(new Host() {
                long next = f.now();

                @Override
                public long nextEvent() {
                    return next;
                }

                @Override
                public void tick(long cycle) {
                    switch (rng.nextInt(4)) {
                        case 0 -> {
                            if (!sources.isEmpty()) {
                                Source s = sources.get(rng.nextInt(sources.size()));
                                for (int b = rng.nextInt(1, 4); b > 0; b--) {
                                    s.send(flit(rng));
                                }
                            }
                        }
                        case 1 -> {
                            if (!sinks.isEmpty()) {
                                sinks.get(rng.nextInt(sinks.size())).ready(rng.nextInt(3) > 0);
                            }
                        }
                        case 2 -> f.poke(chips.get(rng.nextInt(n)), r.key, rng.nextInt(4));
                        default -> {
                            Chip c = chips.get(rng.nextInt(n));
                            trace.add(cycle + " read " + c + " taken=" + f.peek(c, r.taken) + " ticks=" + f.peek(c, r.ticks));
                        }
                    }
                    next = cycle + (rng.nextInt(4) == 0 ? rng.nextInt(50, 300) : rng.nextInt(1, 6));
                }
            });
            f.run(cycles);
            f.sync();
            List<String> state = new ArrayList<>();
            for (Chip c : chips) {
                for (String s : c.sim().signalNames()) {
                    BigInteger v = c.sim().peekBig(s);
                    state.add(c + "." + s + "=" + v.toString(16));
                }
                state.add(c + ".cycle=" + c.sim().cycle());
            }
            return new Run(trace, state, f.chipEvaluations(), f.processedCycles());
        }
    }

    @Test
    void sleepingAndJumpsGiveExactlyTheExhaustiveResults() {
        for (long seed = 1; seed <= 4; seed++) {
            Run exhaustive = randomSystem(seed, 6, 4_000, true, 1, null);
            Run fast = randomSystem(seed, 6, 4_000, false, 1, null);
            assertThat(fast.trace()).as("seed %d", seed).containsExactlyElementsOf(exhaustive.trace());
            assertThat(fast.state()).as("seed %d", seed).containsExactlyElementsOf(exhaustive.state());
            assertThat(exhaustive.evaluations()).isEqualTo(6 * 4_000);
            assertThat(exhaustive.trace().size()).as("the system moved flits").isGreaterThan(100);
            // the point of sleeping: most chip-cycles and most cycles are skipped
            assertThat(fast.evaluations()).as("seed %d", seed).isLessThan(exhaustive.evaluations() / 2);
            assertThat(fast.processed()).as("seed %d", seed).isLessThan(4_000);
            // every chip's timer ticked 31 times (cycles 100, 228, ..., 3940 from its reset), asleep or not
            assertThat(fast.state()).filteredOn(v -> v.endsWith(".relay.beats=1f")).hasSize(6);
        }
    }

    @Test
    void oneAndTwoThreadsGiveIdenticalTraces() {
        for (long seed = 11; seed <= 12; seed++) {
            Run one = randomSystem(seed, 8, 3_000, false, 1, null);
            Run two = randomSystem(seed, 8, 3_000, false, 2, null);
            assertThat(two.trace()).containsExactlyElementsOf(one.trace());
            assertThat(two.state()).containsExactlyElementsOf(one.state());
            assertThat(two.evaluations()).isEqualTo(one.evaluations());
        }
    }

    @Test
    void aChipDumpingWavesNeverSleepsAndChangesNothing(@TempDir Path dir) throws Exception {
        Path vcd = dir.resolve("c0.vcd");
        Run plain = randomSystem(5, 4, 2_000, false, 1, null);
        Run waves = randomSystem(5, 4, 2_000, false, 1, vcd);
        assertThat(waves.trace()).containsExactlyElementsOf(plain.trace());
        assertThat(waves.state()).containsExactlyElementsOf(plain.state());
        String text = Files.readString(vcd);
        assertThat(text).contains("$scope module").contains(" cycles [31:0] $end");
        // chip c0 is evaluated on every one of the 2,000 cycles now
        assertThat(waves.evaluations() - plain.evaluations()).isPositive();
        assertThat(waves.processed()).isEqualTo(2_000);
    }

    /** source -> a -> link -> b -> sink; returns the cycles at which flits left a and entered b. */
    static List<long[]> linkTimes(int latency, int depth, int flits) {
        Simulator proto = relaySim();
        Relay r = (Relay) proto.circuit().top();
        List<Long> sent = new ArrayList<>();
        List<Long> arrived = new ArrayList<>();
        try (Fabric f = new Fabric()) {
            Chip a = f.chip("a", proto);
            Chip b = f.chip("b", proto.fork());
            Source s = f.source(a, r.in0);
            CableChannel l = f.link(a, r.out0, b, r.in0).latency(latency);
            if (depth > 0) {
                l.depth(depth);
            }
            f.sink(b, r.out0, (c, fl) -> { });
            f.observe((c, ch, into, fl) -> {
                if (ch == l) {
                    (into ? arrived : sent).add(c);
                }
            });
            SplittableRandom rng = new SplittableRandom(3);
            for (int i = 0; i < flits; i++) {
                s.send(flit(rng));
            }
            f.runUntil(() -> arrived.size() == flits, 10_000);
        }
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < flits; i++) {
            out.add(new long[] {sent.get(i), arrived.get(i)});
        }
        return out;
    }

    @Test
    void aLinkDeliversAfterItsLatencyAndItsCreditsSetTheRate() {
        List<long[]> full = linkTimes(5, 0, 20);
        for (int i = 0; i < 20; i++) {
            assertThat(full.get(i)[1] - full.get(i)[0]).as("flit %d", i).isEqualTo(5);
            if (i > 0) {
                assertThat(full.get(i)[0] - full.get(i - 1)[0]).as("default depth 12: full rate").isEqualTo(1);
            }
        }
        List<long[]> one = linkTimes(5, 1, 6);
        for (int i = 1; i < 6; i++) {
            // one credit: it returns 5 cycles after the flit was taken at the far end, 10 after it was sent
            assertThat(one.get(i)[0] - one.get(i - 1)[0]).isEqualTo(10);
            assertThat(one.get(i)[1] - one.get(i)[0]).isEqualTo(5);
        }
    }

    @Test
    void badWiringGetsSpecificErrors() {
        Simulator proto = relaySim();
        Relay r = (Relay) proto.circuit().top();
        try (Fabric f = new Fabric()) {
            Chip a = f.chip("a", proto);
            Chip b = f.chip("b", proto.fork());
            assertThatThrownBy(() -> f.link(a, r.in0, b, r.in1)).hasMessageContaining("in0_valid is not a top-level output of chip a");
            f.link(a, r.out0, b, r.in0);
            assertThatThrownBy(() -> f.source(b, r.in0)).hasMessageContaining("already driven by another channel");
            assertThatThrownBy(() -> f.link(a, r.out1, b, r.in1).latency(0)).hasMessageContaining("latency must be at least 1");
            Simulator late = proto.fork();
            late.step();
            assertThatThrownBy(() -> f.chip("c", late)).hasMessageContaining("is at cycle 2 but the fabric's chips are at cycle 1");
            assertThatThrownBy(() -> f.poke(b, r.in0.valid, 1)).hasMessageContaining("driven by a channel");
        }
    }

    @Test
    void aChannelTakesTheHardwareCablesOptions() {
        Simulator proto = relaySim();
        Relay r = (Relay) proto.circuit().top();
        try (Fabric f = new Fabric()) {
            Chip a = f.chip("a", proto);
            Chip b = f.chip("b", proto.fork());
            CableChannel l = f.link(a, r.out0, b, r.in0).options(CableOptions.creditLoop(W, 5).withDepth(3));
            assertThat(l.latency()).isEqualTo(5);
            assertThat(l.depth()).isEqualTo(3);
            assertThat(l.options(W)).isEqualTo(CableOptions.creditLoop(W, 5).withDepth(3));
            CableChannel m = f.link(a, r.out1, b, r.in1);
            assertThat(m.options(W)).isEqualTo(CableOptions.creditLoop(W, 1));
            assertThat(m.depth()).isEqualTo(4);
            assertThatThrownBy(() -> m.options(CableOptions.credits(W, 5))).hasMessageContaining("returns credits over its latency (5 cycles), got credit latency 0");
            assertThatThrownBy(() -> m.options(CableOptions.lanes(W, 2, 5))).hasMessageContaining("got a lane cable's options");
            assertThatThrownBy(() -> m.options(CableOptions.creditLoop(W, 5).withLoss(9))).hasMessageContaining("does not drop flits, got loss 9");
        }
    }
}
