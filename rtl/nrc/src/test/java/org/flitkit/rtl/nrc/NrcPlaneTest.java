package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Recorder;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.FrameSource;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The management plane without the NMA core: every port reaches the NMA side and is reached from it
 * in the cycles docs/th2-nrc.md states, each relay station on the way costing exactly one cycle; many
 * ports at once lose, duplicate and alter nothing, including the packets that only pass through.
 */
@ExtendWith(TestbenchExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NrcPlaneTest {
    /** docs/th2-nrc.md, "RS data path and timing": first request flit taken to the packet at the NMA side, nearest port. */
    static final int NEAREST_INBOUND = 43;
    /** the same: packet taken at the NMA side to the last flit out of the nearest port */
    static final int NEAREST_OUTBOUND = 44;

    /** built once: every test resets it */
    Simulator sim;

    @BeforeAll
    void build() {
        sim = Simulator.of(NrcPlane::new);
    }

    /**
     * A packet source and monitors on every port, a sink on every output, a source and monitors on the
     * NMA side; every output must hold what it offers through a stall (checked each cycle).
     */
    static final class Env {
        final List<FrameSource<BitVector>> in = new ArrayList<>();
        final List<StreamMonitor> inFlits = new ArrayList<>();
        final List<FrameMonitor<BitVector>> out = new ArrayList<>();
        final List<FrameMonitor<BitVector>> toSwitch = new ArrayList<>();
        final StreamMonitor toNma;
        final StreamSource fromNma;
        final StreamMonitor fromNmaTaken;

        Env(Testbench<NrcPlane> tb, Throttle backpressure) {
            NrcPlane plane = tb.dut();
            Framing fourFlits = Framing.fixed(Th2.PACKET_FLITS);
            for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
                StreamPort portIn = StreamPort.of(plane.portIn.get(p));
                in.add(tb.add(new FrameSource<>("port" + p + "_in", portIn, TestPackets.FLITS)));
                inFlits.add(tb.add(new StreamMonitor("port" + p + "_in_mon", portIn)));
                StreamPort portOut = StreamPort.of(plane.portOut.get(p));
                tb.add(new StreamSink("port" + p + "_out", portOut).backpressure(backpressure));
                out.add(tb.add(new FrameMonitor<>("port" + p + "_out_mon", portOut, fourFlits, TestPackets.FLITS).checkHoldEveryCycle()));
                StreamPort sw = StreamPort.of(plane.toSwitch.get(p));
                tb.add(new StreamSink("switch" + p, sw));
                toSwitch.add(tb.add(new FrameMonitor<>("switch" + p + "_mon", sw, fourFlits, TestPackets.FLITS).checkHoldEveryCycle()));
            }
            StreamPort up = StreamPort.of(plane.toNma);
            tb.add(new StreamSink("to_nma", up).backpressure(backpressure));
            toNma = tb.add(new StreamMonitor("to_nma_mon", up).checkHoldEveryCycle());
            StreamPort down = StreamPort.of(plane.fromNma);
            fromNma = tb.add(new StreamSource("from_nma", down));
            fromNmaTaken = tb.add(new StreamMonitor("from_nma_mon", down));
            tb.reset(1);
        }
    }

    @Test
    void eachRelayStationOnTheWayCostsOneCycleInAndOut(RunConfig cfg) {
        int[] inbound = new int[RsGeometry.TH2.ports()];
        int[] outbound = new int[RsGeometry.TH2.ports()];
        try (Testbench<NrcPlane> tb = Testbench.create(sim, cfg)) {
            Env env = new Env(tb, Throttle.NONE);
            Recorder<BigInteger> toNma = new Recorder<>(tb);
            env.toNma.subscribe(toNma);
            Recorder<BigInteger> fromNma = new Recorder<>(tb);
            env.fromNmaTaken.subscribe(fromNma);
            for (int port = 0; port < RsGeometry.TH2.ports(); port++) {
                int p = port;
                Recorder<BigInteger> taken = new Recorder<>(tb);
                env.inFlits.get(p).subscribe(taken);
                Recorder<BitVector> answer = new Recorder<>(tb);
                env.out.get(p).subscribe(answer);

                BitVector req = TestPackets.arrived(p).toBits();
                env.in.get(p).send(req);
                tb.runUntil("the request from port " + p + " at the NMA side", () -> toNma.size() == p + 1, 300);
                assertThat(toNma.get(p)).isEqualTo(req.toBigInteger());
                inbound[p] = (int) (toNma.cycle(p) - taken.cycle(0));

                ManagementPacket resp = TestPackets.readRequest(p, RoutingField.of(p), 0, RoutingField.EMPTY);
                env.fromNma.send(resp.toBits().toBigInteger());
                tb.runUntil("the response out of port " + p, () -> answer.size() == 1, 300);
                assertThat(answer.get(0)).isEqualTo(resp.advance().toBits());
                outbound[p] = (int) (answer.cycle(0) - fromNma.cycle(p));
            }
            tb.finish();
            for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
                assertThat(env.out.get(p).packets()).as("packets out of port %d", p).isEqualTo(1);
                assertThat(env.toSwitch.get(p).packets()).as("packets to the switch from port %d", p).isZero();
            }
        }
        // 40 beats + flit serializer 1 + one cycle per RS + flit and packet deserializers 2 (inbound)
        for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
            int extra = RsGeometry.TH2.hopsToNma(p) - 1;
            assertThat(inbound[p]).as("port %d in", p).isEqualTo(NEAREST_INBOUND + extra);
            assertThat(outbound[p]).as("port %d out", p).isEqualTo(NEAREST_OUTBOUND + extra);
        }
        // the documented extremes: nearest ports 5, 11, 17, 23; farthest 0, 6, 12, 18
        assertThat(new int[] {inbound[5], inbound[0], outbound[5], outbound[0]}).containsExactly(43, 48, 44, 49);
    }

    @Test
    void allPortsAtOnceUnderBackpressureLoseDuplicateAndAlterNothing(RunConfig cfg) {
        try (Testbench<NrcPlane> tb = Testbench.create(sim, cfg)) {
            Env env = new Env(tb, Throttle.random(0.7));
            // at the NMA side, each port's packets in the order sent, keyed by the port nmp_unpacker reports
            OutOfOrderScoreboard<Integer, TestPackets.AtPort> up = tb.add(new OutOfOrderScoreboard<>("to_nma_sb", TestPackets.AtPort::port));
            env.toNma.subscribe(v -> up.observe(new TestPackets.AtPort((int) tb.sim().peek(tb.dut().unpacker.inPort),
                    BitVector.of(Th2.PACKET_BITS, v))));
            OutOfOrderScoreboard<Integer, TestPackets.AtPort> down = tb.add(new OutOfOrderScoreboard<>("port_out_sb", TestPackets.AtPort::port));
            OutOfOrderScoreboard<Integer, TestPackets.AtPort> transit = tb.add(new OutOfOrderScoreboard<>("switch_sb", TestPackets.AtPort::port));
            for (int port = 0; port < RsGeometry.TH2.ports(); port++) {
                int p = port;
                env.out.get(p).subscribe(b -> down.observe(new TestPackets.AtPort(p, b)));
                env.toSwitch.get(p).subscribe(b -> transit.observe(new TestPackets.AtPort(p, b)));
            }
            for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
                for (int k = 0; k < 2; k++) {
                    BitVector req = TestPackets.arrived(p * 10 + k).toBits();
                    up.expect(new TestPackets.AtPort(p, req));
                    env.in.get(p).send(req);
                }
                // and a packet in transit to another chip behind them: it must leave on toSwitch unchanged
                BitVector other = TestPackets.readRequest(500 + p, RoutingField.of(3, 4), 1, RoutingField.EMPTY).toBits();
                transit.expect(new TestPackets.AtPort(p, other));
                env.in.get(p).send(other);
            }
            for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
                int port = (p * 7) % 24;
                ManagementPacket resp = TestPackets.readRequest(1000 + p, RoutingField.of(port), 0, RoutingField.EMPTY);
                down.expect(new TestPackets.AtPort(port, resp.advance().toBits()));
                env.fromNma.send(resp.toBits().toBigInteger());
            }
            tb.runUntil("every packet delivered", () -> up.isEmpty() && down.isEmpty() && transit.isEmpty(), 20_000);
            tb.finish();
            assertThat(up.matched()).isEqualTo(48);
            assertThat(down.matched()).isEqualTo(24);
            assertThat(transit.matched()).isEqualTo(24);
        }
    }
}
