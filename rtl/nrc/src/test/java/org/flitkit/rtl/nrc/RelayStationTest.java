package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.Recorder;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.FrameSource;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.packet.PacketCodec;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The four flows of one relay station (port 9: row 1, column 3), its timing and packet-granular merging. */
@ExtendWith(TestbenchExtension.class)
class RelayStationTest {
    static final int PORT = 9;

    /**
     * Packet sources on the three inputs, sinks on the three outputs, and what moved on each, with its
     * cycle; every port must hold what it offers through a stall (checked each cycle).
     */
    static final class Env implements AutoCloseable {
        final Testbench<RelayStation> tb;
        final FrameSource<BitVector> fromSwitch;
        final FrameSource<List<BigInteger>> fromLeft;
        final FrameSource<List<BigInteger>> fromRight;
        final Recorder<BigInteger> fromLeftTaken;
        final Recorder<BigInteger> fromRightTaken;
        final Recorder<BigInteger> towardNma;
        final Recorder<BigInteger> toLeft;
        final Recorder<BitVector> toPort;
        /** packets (40 beats) toward the NMA */
        final Recorder<List<BigInteger>> towardNmaPackets;

        Env(RunConfig cfg, Throttle backpressure) {
            tb = Testbench.create(() -> new RelayStation(RsGeometry.TH2, PORT), cfg);
            RelayStation rs = tb.dut();
            fromSwitch = tb.add(new FrameSource<>("from_switch", StreamPort.of(rs.fromSwitch), TestPackets.FLITS));
            fromLeft = tb.add(new FrameSource<>("from_left", StreamPort.of(rs.fromLeft), PacketCodec.beats()));
            fromRight = tb.add(new FrameSource<>("from_right", StreamPort.of(rs.fromRight), PacketCodec.beats()));
            fromLeftTaken = record("from_left_mon", StreamPort.of(rs.fromLeft));
            fromRightTaken = record("from_right_mon", StreamPort.of(rs.fromRight));
            StreamPort up = sink("toward_nma", StreamPort.of(rs.towardNma), backpressure);
            towardNmaPackets = new Recorder<>(tb);
            towardNma = new Recorder<>(tb);
            tb.add(new FrameMonitor<>("toward_nma_mon", up, Framing.fixed(RsGeometry.BEATS_PER_PACKET), PacketCodec.beats())
                    .checkHoldEveryCycle().subscribe(towardNmaPackets)).beats().subscribe(towardNma);
            toLeft = record("to_left_mon", sink("to_left", StreamPort.of(rs.toLeft), backpressure));
            StreamPort port = sink("to_port", StreamPort.of(rs.toPort), backpressure);
            toPort = new Recorder<>(tb);
            tb.add(new FrameMonitor<>("to_port_mon", port, Framing.fixed(Th2.PACKET_FLITS), TestPackets.FLITS).checkHoldEveryCycle()
                    .subscribe(toPort));
            tb.reset(1);
        }

        private StreamPort sink(String name, StreamPort out, Throttle backpressure) {
            tb.add(new StreamSink(name, out).backpressure(backpressure));
            return out;
        }

        private Recorder<BigInteger> record(String name, StreamPort port) {
            Recorder<BigInteger> r = new Recorder<>(tb);
            tb.add(new StreamMonitor(name, port).checkHoldEveryCycle().subscribe(r));
            return r;
        }

        /** Runs until every source has sent everything and {@code done} holds; then the end-of-test checks. */
        void runUntil(String what, BooleanSupplier done) {
            tb.runUntil(what, () -> fromSwitch.idle() && fromLeft.idle() && fromRight.idle() && done.getAsBoolean(), 2_000);
            tb.finish();
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    /** The paper's 20-bit data path: a beat is 20 bits, the port tag rides in the head flit (docs/th2-nrc.md). */
    @Test
    void aLinkBeatIsTwentyBitsWide() {
        assertThat(new RsBeat().width()).isEqualTo(20);
    }

    @Test
    void flow1SerializesSwitchFlitsTowardTheNmaTaggedWithThePort(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.NONE)) {
            BitVector a = TestPackets.arrived(1).toBits();
            BitVector b = TestPackets.arrived(2).toBits();
            env.fromSwitch.send(a);
            env.fromSwitch.send(b);
            env.runUntil("80 beats toward the NMA", () -> env.towardNma.size() == 80);
            List<BigInteger> expected = new ArrayList<>(TestPackets.beats(a, PORT));
            expected.addAll(TestPackets.beats(b, PORT));
            assertThat(env.towardNma.items()).isEqualTo(expected);
            // 20-bit data path: 10 cycles per flit, 40 per packet, back to back
            assertThat(env.towardNma.cycle(39) - env.towardNma.cycle(0)).isEqualTo(39);
            assertThat(env.towardNma.cycle(79) - env.towardNma.cycle(0)).isEqualTo(79);
        }
    }

    @Test
    void flow2PassesLeftBeatsOnInOneCycle(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.NONE)) {
            BitVector a = TestPackets.arrived(3).toBits();
            env.fromLeft.send(TestPackets.beats(a, 7));
            env.runUntil("40 beats toward the NMA", () -> env.towardNma.size() == 40);
            assertThat(env.towardNma.items()).isEqualTo(TestPackets.beats(a, 7));
            assertThat(env.towardNma.cycle(0) - env.fromLeftTaken.cycle(0)).isEqualTo(1);
            assertThat(env.towardNma.cycle(39) - env.towardNma.cycle(0)).isEqualTo(39);
        }
    }

    @Test
    void flow3ReassemblesBeatsForThisPortIntoFlits(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.NONE)) {
            BitVector a = TestPackets.arrived(4).toBits();
            env.fromRight.send(TestPackets.beats(a, PORT));
            env.runUntil("the packet out of the port", () -> env.toPort.size() == 1);
            assertThat(env.toPort.items()).containsExactly(a);
            assertThat(env.toLeft.size()).isZero();
            assertThat(env.towardNma.size()).isZero();
        }
    }

    @Test
    void flow4SendsOtherPortsBeatsOnToTheLeft(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.NONE)) {
            BitVector a = TestPackets.arrived(5).toBits();
            env.fromRight.send(TestPackets.beats(a, 8));
            env.runUntil("40 beats to the left", () -> env.toLeft.size() == 40);
            assertThat(env.toLeft.items()).isEqualTo(TestPackets.beats(a, 8));
            assertThat(env.toLeft.cycle(0) - env.fromRightTaken.cycle(0)).isEqualTo(1);
            assertThat(env.toPort.size()).isZero();
        }
    }

    @Test
    void allFourFlowsAtOnceUnderBackpressureKeepPacketsWhole(RunConfig cfg) {
        try (Env env = new Env(cfg, Throttle.random(0.6))) {
            List<BitVector> local = List.of(TestPackets.arrived(10).toBits(), TestPackets.arrived(11).toBits());
            List<BitVector> left = List.of(TestPackets.arrived(20).toBits(), TestPackets.arrived(21).toBits(), TestPackets.arrived(22).toBits());
            local.forEach(env.fromSwitch::send);
            left.forEach(p -> env.fromLeft.send(TestPackets.beats(p, 2)));
            BitVector mine = TestPackets.arrived(30).toBits();
            BitVector other = TestPackets.arrived(31).toBits();
            env.fromRight.send(TestPackets.beats(mine, PORT));
            env.fromRight.send(TestPackets.beats(other, 6));
            env.fromRight.send(TestPackets.beats(mine, PORT));
            env.runUntil("every packet through", () -> env.towardNmaPackets.size() == 5 && env.toPort.size() == 2
                    && env.toLeft.size() == 40);
            // inbound: five whole packets, never interleaved, alternating while both inputs have one; the
            // left input wins the first round (its beat is there a cycle before the serializer's)
            assertThat(env.towardNmaPackets.items()).containsExactly(TestPackets.beats(left.get(0), 2), TestPackets.beats(local.get(0), PORT),
                    TestPackets.beats(left.get(1), 2), TestPackets.beats(local.get(1), PORT), TestPackets.beats(left.get(2), 2));
            assertThat(env.toPort.items()).containsExactly(mine, mine);
            assertThat(env.toLeft.items()).isEqualTo(TestPackets.beats(other, 6));
        }
    }
}
