package org.flitkit.testbench.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.WidthDeserializer;
import org.flitkit.hdl.lib.WidthSerializer;
import org.flitkit.testbench.Duts;
import org.flitkit.testbench.Recorder;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.TestbenchFailure;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestbenchExtension.class)
class FrameComponentsTest {
    /** 16-bit beats of test packets: [15:8] packet number, [7:1] beat number, [0] last beat of the packet. */
    static List<BigInteger> packet(int number, int beats) {
        List<BigInteger> p = new ArrayList<>();
        for (int b = 0; b < beats; b++) {
            p.add(BigInteger.valueOf((long) (number & 0xFF) << 8 | b << 1 | (b == beats - 1 ? 1 : 0)));
        }
        return p;
    }

    /** A packet source into {@code enq} and a packet monitor on {@code deq}, both framed by {@code framing}, around a scoreboard. */
    private static final class Env {
        final FrameSource<List<BigInteger>> source;
        final FrameMonitor<List<BigInteger>> monitor;
        final InOrderScoreboard<List<BigInteger>> scoreboard;

        Env(Testbench<?> tb, StreamPort enq, StreamPort deq, Framing framing) {
            source = tb.add(new FrameSource<>("source", enq, PacketCodec.beats()));
            tb.add(new StreamSink("sink", deq).backpressure(Throttle.busy(0.3)));
            scoreboard = tb.add(new InOrderScoreboard<>("scoreboard"));
            monitor = tb.add(new FrameMonitor<>("monitor", deq, framing, PacketCodec.beats()).subscribe(scoreboard::observe));
        }

        void send(List<BigInteger> packet) {
            source.send(packet);
            scoreboard.expect(packet);
        }
    }

    @Test
    void packetsOfAnyLengthCrossAFifoWholeUnderGapsAndBackpressure(RunConfig cfg) {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, cfg)) {
            StreamPort enq = StreamPort.of(tb.dut().enq);
            Env env = new Env(tb, enq, StreamPort.of(tb.dut().deq), Framing.lastBit(0));
            env.source.beatGaps(Throttle.busy(0.3)).packetGaps(Throttle.busy(0.5));
            FrameMonitor<List<BigInteger>> in = tb.add(new FrameMonitor<>("in_monitor", enq, Framing.lastBit(0), PacketCodec.beats()));
            Rng lengths = tb.rng("lengths");
            int beats = 0;
            for (int i = 0; i < 100; i++) {
                int n = 1 + lengths.nextInt(6);
                beats += n;
                env.send(packet(i, n));
            }
            tb.reset(1);
            tb.runUntil("100 packets through", () -> env.scoreboard.matched() == 100, 5_000);
            tb.finish();
            assertThat(env.source.sent()).isEqualTo(100);
            assertThat(env.source.idle()).isTrue();
            assertThat(env.source.beats().sent()).isEqualTo(beats);
            assertThat(in.packets()).isEqualTo(100);
            assertThat(env.monitor.beats().beats()).isEqualTo(beats);
        }
    }

    @Test
    void packetGapsGoBetweenPacketsAndWithoutGapsPacketsFollowBackToBack(RunConfig cfg) {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, cfg)) {
            StreamPort enq = StreamPort.of(tb.dut().enq);
            // a packet may start in cycles 10, 20, ..., a beat may go in cycles 0, 4, 8, ...: a packet
            // started at 10 ends at 20, so the next one waits for cycle 30, not 20
            FrameSource<List<BigInteger>> source = tb.add(new FrameSource<>("source", enq, PacketCodec.beats())
                    .packetGaps((rng, cycle) -> cycle % 10 == 0).beatGaps((rng, cycle) -> cycle % 4 == 0));
            tb.add(new StreamSink("sink", StreamPort.of(tb.dut().deq)));
            Recorder<BigInteger> taken = new Recorder<>(tb);
            tb.add(new StreamMonitor("in_monitor", enq).subscribe(taken));
            for (int i = 0; i < 4; i++) {
                source.send(packet(i, 3));
            }
            tb.reset(1);
            tb.runUntil("4 packets in", source::idle, 100);
            List<Long> cycles = new ArrayList<>();
            for (int i = 0; i < taken.size(); i++) {
                cycles.add(taken.cycle(i));
            }
            assertThat(cycles).containsExactly(12L, 16L, 20L, 32L, 36L, 40L, 52L, 56L, 60L, 72L, 76L, 80L);

            // without gaps the next packet starts in the cycle after the last beat of the one before
            source.packetGaps(Throttle.NONE).beatGaps(Throttle.NONE);
            source.send(packet(4, 2));
            source.send(packet(5, 2));
            long start = tb.cycle();
            tb.runUntil("2 more packets in", source::idle, 100);
            assertThat(taken.size()).isEqualTo(16);
            for (int i = 12; i < 16; i++) {
                assertThat(taken.cycle(i)).isEqualTo(start + i - 12);
            }
        }
    }

    @Test
    void aDroppedBeatIsCaught(RunConfig cfg) {
        try (Testbench<Duts.Dropping> tb = Testbench.create(Duts.Dropping::new, cfg)) {
            Env env = new Env(tb, StreamPort.of(tb.dut().enq), StreamPort.of(tb.dut().deq), Framing.fixed(4));
            env.scoreboard.format(p -> p.stream().map(b -> Integer.toHexString(b.intValue())).toList().toString());
            for (int i = 0; i < 4; i++) {
                env.send(packet(i, 4));
            }
            tb.reset(1);
            // beat #6 is the third beat of packet 1: that packet ends with packet 2's first beat
            assertThatThrownBy(() -> tb.runUntil("4 packets through", () -> env.scoreboard.matched() == 4, 1_000))
                    .isInstanceOf(TestbenchFailure.class)
                    .hasMessageContaining("scoreboard: item #1 (expected since cycle 0) does not match")
                    .hasMessageContaining("expected: [100, 102, 104, 107]")
                    .hasMessageContaining("observed: [100, 102, 107, 200]");
        }
    }

    @Test
    void reorderedBeatsAreCaught(RunConfig cfg) {
        try (Testbench<Duts.PairSwapping> tb = Testbench.create(Duts.PairSwapping::new, cfg)) {
            Env env = new Env(tb, StreamPort.of(tb.dut().enq), StreamPort.of(tb.dut().deq), Framing.lastBit(0));
            env.scoreboard.format(p -> p.stream().map(b -> Integer.toHexString(b.intValue())).toList().toString());
            env.send(packet(1, 4));
            tb.reset(1);
            // 0 1 2 3 leave as 1 0 3 2: the marked beat 3 ends the packet one beat early
            assertThatThrownBy(() -> tb.runUntil("the packet through", () -> env.scoreboard.matched() == 1, 1_000))
                    .isInstanceOf(TestbenchFailure.class)
                    .hasMessageContaining("scoreboard: item #0 (expected since cycle 0) does not match")
                    .hasMessageContaining("expected: [100, 102, 104, 107]")
                    .hasMessageContaining("observed: [102, 100, 107]");
        }
    }

    /** Words as 16-bit beats, least significant first, as the stdlib serializer sends them. */
    static final PacketCodec<BigInteger> WORDS = PacketCodec.of(w -> {
        List<BigInteger> beats = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            beats.add(w.shiftRight(16 * i).and(BigInteger.valueOf(0xFFFF)));
        }
        return beats;
    }, beats -> {
        BigInteger w = BigInteger.ZERO;
        for (int i = beats.size() - 1; i >= 0; i--) {
            w = w.shiftLeft(16).or(beats.get(i));
        }
        return w;
    });

    @Test
    void aSideBandLastSignalFramesTheSerializerOutput(RunConfig cfg) {
        try (Testbench<WidthSerializer> tb = Testbench.create(() -> new WidthSerializer(64, 16), cfg)) {
            StreamPort in = StreamPort.of(tb.dut().in);
            StreamPort out = StreamPort.of(tb.dut().out);
            StreamSource source = tb.add(new StreamSource("source", in).gaps(Throttle.busy(0.5)));
            tb.add(new StreamSink("sink", out).backpressure(Throttle.busy(0.3)));
            InOrderScoreboard<BigInteger> scoreboard = tb.add(new InOrderScoreboard<>("scoreboard"));
            tb.add(new StreamMonitor("in_monitor", in).subscribe(scoreboard::expect));
            FrameMonitor<BigInteger> words = tb.add(new FrameMonitor<>("out_monitor", out, Framing.last(tb.dut().last), WORDS)
                    .subscribe(scoreboard::observe));
            Rng data = tb.rng("data");
            for (int i = 0; i < 50; i++) {
                source.send(data.bits(64));
            }
            tb.reset(1);
            tb.runUntil("50 words through", () -> scoreboard.matched() == 50, 2_000);
            tb.finish();
            assertThat(words.beats().beats()).isEqualTo(200);
            assertThatThrownBy(() -> Framing.last(tb.dut().out.bits)).hasMessageContaining("is 16 bits wide; a last signal is 1 bit");
        }
    }

    @Test
    void aFrameSourceFeedsTheDeserializerWholeWords(RunConfig cfg) {
        try (Testbench<WidthDeserializer> tb = Testbench.create(() -> new WidthDeserializer(64, 16), cfg)) {
            FrameSource<BigInteger> source = tb.add(new FrameSource<>("source", StreamPort.of(tb.dut().in), WORDS)
                    .beatGaps(Throttle.busy(0.3)).packetGaps(Throttle.busy(0.3)));
            StreamPort out = StreamPort.of(tb.dut().out);
            tb.add(new StreamSink("sink", out).backpressure(Throttle.busy(0.3)));
            InOrderScoreboard<BigInteger> scoreboard = tb.add(new InOrderScoreboard<>("scoreboard"));
            tb.add(new StreamMonitor("out_monitor", out).subscribe(scoreboard::observe));
            Rng data = tb.rng("data");
            for (int i = 0; i < 50; i++) {
                BigInteger w = data.bits(64);
                source.send(w);
                scoreboard.expect(w);
            }
            tb.reset(1);
            tb.runUntil("50 words through", () -> scoreboard.matched() == 50, 2_000);
            tb.finish();
        }
    }

    @Test
    void aLengthInTheHeaderFramesPacketsAndABadLengthIsReported(RunConfig cfg) {
        // the first beat of a packet carries the packet's length in beats in [3:0]
        Framing byHeader = Framing.length(1, header -> header.get(0).intValue() & 0xF);
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, cfg)) {
            Env env = new Env(tb, StreamPort.of(tb.dut().enq), StreamPort.of(tb.dut().deq), byHeader);
            Rng lengths = tb.rng("lengths");
            for (int i = 0; i < 40; i++) {
                int n = 1 + lengths.nextInt(9);
                List<BigInteger> p = new ArrayList<>();
                p.add(BigInteger.valueOf(i << 8 | n));
                for (int b = 1; b < n; b++) {
                    p.add(BigInteger.valueOf(0xF000 | b));
                }
                env.send(p);
            }
            tb.reset(1);
            tb.runUntil("40 packets through", () -> env.scoreboard.matched() == 40, 2_000);
            tb.finish();

            env.source.send(List.of(BigInteger.valueOf(0x2A00)));
            assertThatThrownBy(() -> tb.run(20))
                    .isInstanceOf(TestbenchFailure.class)
                    .hasMessageContaining("monitor: queue.deq: cannot frame the packet started at cycle")
                    .hasMessageContaining("the header gives a length of 0 beat(s), less than its own 1")
                    .hasMessageContaining("beats: 0x2a00");
        }
    }

    @Test
    void anUnfinishedPacketFailsFinishAndAMissingEndFailsAtMaxBeats(RunConfig cfg) {
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, cfg)) {
            StreamPort deq = StreamPort.of(tb.dut().deq);
            FrameSource<List<BigInteger>> source = tb.add(new FrameSource<>("source", StreamPort.of(tb.dut().enq), PacketCodec.beats()));
            tb.add(new StreamSink("sink", deq));
            FrameMonitor<List<BigInteger>> monitor = tb.add(new FrameMonitor<>("monitor", deq, Framing.lastBit(0), PacketCodec.beats())
                    .maxBeats(5));
            source.send(List.of(BigInteger.valueOf(2), BigInteger.valueOf(4)));
            tb.reset(1);
            tb.runUntil("2 beats through", () -> monitor.beats().beats() == 2, 20);
            assertThat(tb.describeState()).isEqualTo("\n  monitor: 2 beat(s) of a packet started at cycle 2, not ended yet:"
                    + "\n    0x0002\n    0x0004");
            assertThatThrownBy(tb::finish).isInstanceOf(TestbenchFailure.class)
                    .hasMessageContaining("monitor: queue.deq: a packet started at cycle 2 never ended; its 2 beat(s): 0x0002 0x0004");
            source.send(List.of(BigInteger.valueOf(6), BigInteger.valueOf(8), BigInteger.valueOf(10)));
            assertThatThrownBy(() -> tb.run(20)).isInstanceOf(TestbenchFailure.class)
                    .hasMessageContaining("monitor: queue.deq: packet started at cycle 2 has 5 beats and has not ended (at most 5)");
        }
    }

    @Test
    void aBeatSequenceTheCodecRejectsIsReportedWithItsBeats(RunConfig cfg) {
        PacketCodec<String> evenOnly = PacketCodec.of(s -> List.of(new BigInteger(s, 16)), beats -> {
            if (beats.get(0).testBit(0)) {
                throw new IllegalArgumentException("odd beat");
            }
            return beats.get(0).toString(16);
        });
        try (Testbench<Queue<UInt>> tb = Testbench.create(Duts::fifo, cfg)) {
            StreamPort deq = StreamPort.of(tb.dut().deq);
            FrameSource<String> source = tb.add(new FrameSource<>("source", StreamPort.of(tb.dut().enq), evenOnly));
            tb.add(new StreamSink("sink", deq));
            List<String> got = new ArrayList<>();
            tb.add(new FrameMonitor<>("monitor", deq, Framing.fixed(1), evenOnly).subscribe(got::add));
            source.send("a");
            source.send("3");
            tb.reset(1);
            assertThatThrownBy(() -> tb.run(10)).isInstanceOf(TestbenchFailure.class)
                    .hasMessageContaining("monitor: queue.deq: the 1 beat(s) from cycle 3 are not a packet: odd beat\n  beats: 0x0003");
            assertThat(got).containsExactly("a");
        }
    }

    @Test
    void aTimeoutListsThePacketsASourceStillHolds(RunConfig cfg) {
        try (Testbench<Duts.Stuck> tb = Testbench.create(Duts.Stuck::new, cfg)) {
            FrameSource<List<BigInteger>> source = tb.add(new FrameSource<>("frames", StreamPort.of(tb.dut().enq), PacketCodec.beats()));
            for (int i = 0; i < 3; i++) {
                source.send(List.of(BigInteger.valueOf(2 * i + 1), BigInteger.valueOf(2 * i + 2)));
            }
            tb.reset(1);
            assertThatThrownBy(() -> tb.runUntil("3 packets sent", source::idle, 10))
                    .isInstanceOf(TestbenchFailure.class)
                    .hasMessage("""
                            cycle 11: testbench: timeout: 3 packets sent did not happen within 10 cycles (waited since cycle 1)
                              frames: 2 packet(s) queued, one in progress (2 beats): [1, 2]; queued:
                                [3, 4]
                                [5, 6]
                              frames.beats: 2 beat(s) not taken:
                                0x0001 (offered since cycle 1)
                                0x0002
                              seed=%d""".formatted(cfg.seed()));
        }
    }

    @Test
    void framingsRejectNonsense() {
        assertThatThrownBy(() -> Framing.fixed(0)).hasMessageContaining("at least one beat, got 0");
        assertThatThrownBy(() -> Framing.lastBit(-1)).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> Framing.length(0, h -> 1)).hasMessageContaining("a header needs at least one beat");
    }
}
