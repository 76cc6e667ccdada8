package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.RoutingField;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The management plane without the NMA core: every port reaches the NMA side and is reached from it;
 * each relay station on the way costs exactly one cycle; many ports at once lose and duplicate nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NrcPlaneTest {
    Simulator sim;
    NrcPlane plane;

    @BeforeAll
    void build() {
        sim = Simulator.of(NrcPlane::new);
        plane = (NrcPlane) sim.circuit().top();
    }

    final class Env {
        final List<Ports.Source> in = new ArrayList<>();
        final List<Ports.Sink> out = new ArrayList<>();
        final List<Ports.Sink> sw = new ArrayList<>();
        final Ports.Sink toNma;
        final Ports.Source fromNma;
        final List<Ports.Endpoint> all = new ArrayList<>();

        Env(Random rnd, double ready) {
            for (int p = 0; p < RsGeometry.PORTS; p++) {
                in.add(new Ports.Source(sim, plane.portIn.get(p)));
                out.add(new Ports.Sink(sim, plane.portOut.get(p), rnd, ready));
                sw.add(new Ports.Sink(sim, plane.toSwitch.get(p)));
            }
            toNma = new Ports.Sink(sim, plane.toNma, rnd, ready);
            fromNma = new Ports.Source(sim, plane.fromNma);
            all.addAll(in);
            all.addAll(out);
            all.addAll(sw);
            all.add(toNma);
            all.add(fromNma);
            sim.reset();
        }

        long run(long max, java.util.function.BooleanSupplier done) {
            return Ports.run(sim, max, done, all);
        }
    }

    @Test
    void eachRelayStationOnTheWayCostsOneCycleInAndOut() {
        int[] inbound = new int[RsGeometry.PORTS];
        int[] outbound = new int[RsGeometry.PORTS];
        for (int port = 0; port < RsGeometry.PORTS; port++) {
            final int p = port;
            Env env = new Env(null, 1.0);
            BitVector req = Packets.arrived(p).toBits();
            env.in.get(p).addAll(Packets.flits(req));
            env.run(300, () -> env.toNma.got.size() == 1);
            assertThat(env.toNma.got).containsExactly(req.toBigInteger());
            inbound[p] = (int) (env.toNma.at.get(0) - env.in.get(p).takenAt.get(0));

            ManagementPacket resp = Packets.readRequest(p, RoutingField.of(p), 0, RoutingField.EMPTY);
            env.fromNma.add(resp.toBits().toBigInteger());
            env.run(300, () -> env.out.get(p).got.size() == 4);
            assertThat(env.out.get(p).got).isEqualTo(Packets.flits(resp.advance().toBits()));
            outbound[p] = (int) (env.out.get(p).at.get(3) - env.fromNma.takenAt.get(0));
        }
        System.out.println("plane inbound cycles by port " + java.util.Arrays.toString(inbound));
        System.out.println("plane outbound cycles by port " + java.util.Arrays.toString(outbound));
        int nearIn = inbound[RsGeometry.LAST_COL];
        int nearOut = outbound[RsGeometry.LAST_COL];
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            int extra = RsGeometry.hopsToNma(p) - 1;
            assertThat(inbound[p]).as("port %d in", p).isEqualTo(nearIn + extra);
            assertThat(outbound[p]).as("port %d out", p).isEqualTo(nearOut + extra);
        }
        // 40 beats at one per cycle dominate: the nearest port takes the packet time plus a few pipeline cycles
        assertThat(nearIn).isBetween(40, 46);
        assertThat(nearOut).isBetween(40, 46);
    }

    @Test
    void allPortsAtOnceUnderBackpressureLoseAndDuplicateNothing() {
        Env env = new Env(new Random(11), 0.7);
        Waves.start(sim, "nrc-plane-all-ports");
        Set<BigInteger> expectIn = new HashSet<>();
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            for (int k = 0; k < 2; k++) {
                BitVector req = Packets.arrived(p * 10 + k).toBits();
                expectIn.add(req.toBigInteger());
                env.in.get(p).addAll(Packets.flits(req));
            }
            // and a packet in transit to another chip, interleaved
            env.in.get(p).addAll(Packets.flits(Packets.readRequest(500 + p, RoutingField.of(3, 4), 1, RoutingField.EMPTY).toBits()));
        }
        List<List<BigInteger>> expectOut = new ArrayList<>();
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            ManagementPacket resp = Packets.readRequest(1000 + p, RoutingField.of((p * 7) % 24), 0, RoutingField.EMPTY);
            env.fromNma.add(resp.toBits().toBigInteger());
            expectOut.add(Packets.flits(resp.advance().toBits()));
        }
        env.run(20_000, () -> env.toNma.got.size() == 48 && env.out.stream().mapToInt(s -> s.got.size()).sum() == 96
                && env.sw.stream().mapToInt(s -> s.got.size()).sum() == 96);
        sim.stopVcd();
        assertThat(new HashSet<>(env.toNma.got)).isEqualTo(expectIn);
        assertThat(env.toNma.got).hasSize(48);
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            int port = (p * 7) % 24;
            assertThat(env.out.get(port).got).as("port %d", port).isEqualTo(expectOut.get(p));
            assertThat(env.sw.get(p).got).hasSize(4);
        }
    }
}
