package org.flitkit.testbench.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.testbench.Duts;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.TestbenchFailure;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestbenchExtension.class)
class StreamComponentsTest {
    /** A source, sink, two monitors and a scoreboard around a FIFO: the shape of every stream testbench. */
    private static final class Env {
        final StreamSource source;
        final StreamSink sink;
        final StreamMonitor inMonitor;
        final StreamMonitor outMonitor;
        final InOrderScoreboard<BigInteger> scoreboard;

        Env(Testbench<?> tb, StreamPort in, StreamPort out, Throttle gaps, Throttle backpressure) {
            source = tb.add(new StreamSource("source", in).gaps(gaps));
            sink = tb.add(new StreamSink("sink", out).backpressure(backpressure));
            scoreboard = tb.add(new InOrderScoreboard<>("scoreboard"));
            inMonitor = tb.add(new StreamMonitor("in_monitor", in).subscribe(scoreboard::expect));
            outMonitor = tb.add(new StreamMonitor("out_monitor", out).subscribe(scoreboard::observe));
        }
    }

    @Test
    void everyBeatArrivesOnceInOrderUnderRandomGapsAndBackpressure(RunConfig cfg) {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, cfg)) {
            Env env = new Env(tb, StreamPort.of(tb.dut().enq), StreamPort.of(tb.dut().deq), Throttle.busy(0.4), Throttle.busy(0.5));
            Rng data = tb.rng("data");
            for (int i = 0; i < 300; i++) {
                env.source.send(data.bits(Duts.WIDTH));
            }
            tb.reset(1);
            tb.runUntil("300 beats delivered", () -> env.scoreboard.matched() == 300, 5_000);
            tb.finish();
            assertThat(env.source.sent()).isEqualTo(300);
            assertThat(env.inMonitor.beats()).isEqualTo(300);
            assertThat(env.outMonitor.beats()).isEqualTo(300);
            assertThat(env.source.idle()).isTrue();
        }
    }

    @Test
    void withoutThrottlesAFifoMovesOneBeatPerCycle(RunConfig cfg) {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, cfg)) {
            Env env = new Env(tb, StreamPort.of(tb.dut().enq), StreamPort.of(tb.dut().deq), Throttle.NONE, Throttle.NONE);
            for (int i = 0; i < 100; i++) {
                env.source.send(i);
            }
            tb.reset(1);
            long cycles = tb.runUntil("100 beats delivered", () -> env.scoreboard.matched() == 100, 1_000);
            assertThat(cycles).isEqualTo(101); // one cycle through the FIFO, then one beat per cycle
        }
    }

    @Test
    void generatorFeedsUntilStopped(RunConfig cfg) {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, cfg)) {
            Env env = new Env(tb, StreamPort.of(tb.dut().enq), StreamPort.of(tb.dut().deq), Throttle.NONE, Throttle.busy(0.2));
            long[] next = {0};
            env.source.generate(() -> BigInteger.valueOf(next[0]++));
            tb.reset(1);
            tb.run(200);
            assertThat(env.source.idle()).isFalse();
            env.source.stop();
            tb.runUntil("drain", () -> env.source.idle() && env.scoreboard.isEmpty(), 100);
            tb.finish();
            assertThat(env.scoreboard.matched()).isEqualTo(env.source.sent()).isGreaterThan(100);
        }
    }

    @Test
    void scoreboardReportsCycleExpectedAndObserved(RunConfig cfg) {
        try (Testbench<Duts.Corrupting> tb = Testbench.create(Duts.Corrupting::new, cfg)) {
            Env env = new Env(tb, StreamPort.of(tb.dut().enq), StreamPort.of(tb.dut().deq), Throttle.NONE, Throttle.NONE);
            for (int i = 0; i < 10; i++) {
                env.source.send(0x100 + i);
            }
            tb.reset(1);
            assertThatThrownBy(() -> tb.run(50))
                    .isInstanceOfSatisfying(TestbenchFailure.class, f -> {
                        assertThat(f.component()).isEqualTo("scoreboard");
                        assertThat(f.cycle()).isEqualTo(7); // reset, one cycle through the FIFO, five good elements
                        assertThat(f.seed()).isEqualTo(cfg.seed());
                    })
                    .hasMessageContaining("cycle 7: scoreboard: item #5")
                    .hasMessageContaining("expected: 0x105\n  observed: 0x104\n  differs in bit 0 (xor 0x1)")
                    .hasMessageContaining("seed=" + cfg.seed());
        }
    }

    @Test
    void monitorCatchesValidDroppedBeforeTheHandshake(RunConfig cfg) {
        try (Testbench<Duts.Retracting> tb = Testbench.create(Duts.Retracting::new, cfg)) {
            StreamPort out = StreamPort.of(tb.dut().deq);
            tb.add(new StreamSink("sink", out).backpressure((rng, cycle) -> false));
            tb.add(new StreamMonitor("out_monitor", out));
            tb.reset(1);
            assertThatThrownBy(() -> tb.run(10))
                    .isInstanceOf(TestbenchFailure.class)
                    .hasMessageContaining("out_monitor: retracting.deq: valid dropped while stalled")
                    .hasMessageContaining("offered since cycle");
        }
    }

    @Test
    void bitsThatChangeAndChangeBackDuringAStallAreCaughtWhenCheckedEveryCycle(RunConfig cfg) {
        Throttle everyThirdCycle = (rng, cycle) -> cycle % 3 == 0;
        try (Testbench<Duts.Wobbling> tb = Testbench.create(Duts.Wobbling::new, cfg)) {
            StreamPort out = StreamPort.of(tb.dut().deq);
            tb.add(new StreamSink("sink", out).backpressure(everyThirdCycle));
            StreamMonitor atHandshake = tb.add(new StreamMonitor("out_monitor", out));
            tb.reset(1);
            tb.run(30); // the beat taken is always the one first offered
            assertThat(atHandshake.beats()).isEqualTo(10);
        }
        try (Testbench<Duts.Wobbling> tb = Testbench.create(Duts.Wobbling::new, cfg)) {
            StreamPort out = StreamPort.of(tb.dut().deq);
            tb.add(new StreamSink("sink", out).backpressure(everyThirdCycle));
            tb.add(new StreamMonitor("out_monitor", out).checkHoldEveryCycle());
            tb.reset(1);
            assertThatThrownBy(() -> tb.run(30))
                    .isInstanceOfSatisfying(TestbenchFailure.class, f -> assertThat(f.cycle()).isEqualTo(2))
                    .hasMessageContaining("out_monitor: wobbling.deq: bits changed while valid was waiting for ready "
                            + "(offered since cycle 1)\n  offered: 0x0000\n  now:     0x0001");
        }
    }

    @Test
    void protocolCheckCanBeTurnedOff(RunConfig cfg) {
        try (Testbench<Duts.Retracting> tb = Testbench.create(Duts.Retracting::new, cfg)) {
            StreamPort out = StreamPort.of(tb.dut().deq);
            tb.add(new StreamSink("sink", out).backpressure(Throttle.busy(0.5)));
            List<BigInteger> seen = new ArrayList<>();
            StreamMonitor m = tb.add(new StreamMonitor("out_monitor", out).noProtocolCheck().subscribe(seen::add));
            tb.reset(1);
            tb.run(100);
            assertThat(m.beats()).isEqualTo(seen.size()).isPositive();
            for (int i = 0; i < seen.size(); i++) {
                assertThat(seen.get(i)).isEqualTo(BigInteger.valueOf(i));
            }
        }
    }

    @Test
    void aHungDesignTimesOutWithWhatItWaitedFor(RunConfig cfg) {
        try (Testbench<Duts.Stuck> tb = Testbench.create(Duts.Stuck::new, cfg)) {
            StreamSource source = tb.add(new StreamSource("source", new StreamPort("stuck.enq", tb.dut().enq.valid,
                    tb.dut().enq.ready, tb.dut().enq.bits)));
            source.send(1);
            tb.reset(1);
            assertThatThrownBy(() -> tb.runUntil("the beat to be accepted", source::idle, 100))
                    .isInstanceOfSatisfying(TestbenchFailure.class, f -> assertThat(f.cycle()).isEqualTo(101))
                    .hasMessageContaining("timeout: the beat to be accepted did not happen within 100 cycles (waited since cycle 1)");
        }
    }

    @Test
    void bundlePayloadsArePackedFirstFieldHighest(RunConfig cfg) {
        try (Testbench<Queue<Duts.Packet>> tb = Testbench.create(Duts::packetFifo, cfg)) {
            Env env = new Env(tb, StreamPort.of(tb.dut().enq), StreamPort.of(tb.dut().deq), Throttle.NONE, Throttle.busy(0.3));
            assertThat(StreamPort.of(tb.dut().enq).width()).isEqualTo(12);
            env.source.send(0x1FF); // tag 1, data -1
            for (int i = 0; i < 100; i++) {
                env.source.send(i * 37 % 4096);
            }
            tb.reset(1);
            tb.run(1); // the first packet is on the wires (and taken: the FIFO is empty)
            assertThat(tb.sim().peek(tb.dut().enq.bits.tag)).isEqualTo(1);
            assertThat(tb.sim().peek(tb.dut().enq.bits.data)).isEqualTo(-1);
            tb.runUntil("101 packets through", () -> env.scoreboard.matched() == 101, 1_000);
            tb.finish();
            assertThatThrownBy(() -> StreamPort.of(tb.dut().enq).pokeBits(tb.sim(), BigInteger.ONE.shiftLeft(12)))
                    .hasMessageContaining("does not fit the 12-bit payload of queue.enq");
        }
    }

    @Test
    void sameSeedSameTraffic(RunConfig cfg) {
        assertThat(trafficSignature(cfg)).isEqualTo(trafficSignature(cfg))
                .isNotEqualTo(trafficSignature(cfg.withSeed(cfg.seed() + 1)));
    }

    /** Cycles at which each beat left the FIFO, under random gaps and backpressure. */
    private static List<Long> trafficSignature(RunConfig cfg) {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, cfg)) {
            Env env = new Env(tb, StreamPort.of(tb.dut().enq), StreamPort.of(tb.dut().deq), Throttle.busy(0.5), Throttle.busy(0.5));
            List<Long> when = new ArrayList<>();
            env.outMonitor.subscribe(v -> when.add(tb.cycle()));
            Rng data = tb.rng("data");
            env.source.generate(() -> data.bits(Duts.WIDTH));
            tb.reset(1);
            tb.run(300);
            return when;
        }
    }
}
