package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.RoutingField;
import org.junit.jupiter.api.Test;

/** nmp_packer: each packet goes to the row of its port Route.Hop[HopPtr], tagged with it, with HopPtr + 1. */
class NmpPackerTest {
    Simulator sim = Simulator.of(NmpPacker::new);
    NmpPacker pk = (NmpPacker) sim.circuit().top();

    @Test
    void routesEveryPortToItsRowWithHopPtrIncremented() {
        Waves.start(sim, "nmp-packer-routing");
        Ports.Source in = new Ports.Source(sim, pk.in);
        List<Ports.Sink> rows = new ArrayList<>();
        Random rnd = new Random(7);
        for (int r = 0; r < RsGeometry.ROWS; r++) {
            rows.add(new Ports.Sink(sim, pk.rows.get(r), rnd, 0.7));
        }
        List<List<BigInteger>> expected = new ArrayList<>();
        for (int r = 0; r < RsGeometry.ROWS; r++) {
            expected.add(new ArrayList<>());
        }
        for (int p = 0; p < RsGeometry.PORTS; p++) {
            // the current hop is the second of three: Hop[1] = p
            ManagementPacket m = Packets.readRequest(p, RoutingField.of(9, p, 4), 1, RoutingField.of(0));
            in.add(m.toBits().toBigInteger());
            expected.get(RsGeometry.row(p)).addAll(Packets.beats(m.advance().toBits(), p));
        }
        sim.reset();
        List<Ports.Endpoint> eps = new ArrayList<>(rows);
        eps.add(in);
        Ports.run(sim, 5_000, () -> rows.stream().mapToInt(s -> s.got.size()).sum() == 24 * 40, eps);
        sim.stopVcd();
        for (int r = 0; r < RsGeometry.ROWS; r++) {
            assertThat(rows.get(r).got).as("row %d", r).isEqualTo(expected.get(r));
        }
        assertThat(sim.peek(pk.routeDrops)).isZero();
    }

    @Test
    void dropsAndCountsPacketsWithNoUsableHop() {
        Ports.Source in = new Ports.Source(sim, pk.in);
        List<Ports.Sink> rows = new ArrayList<>();
        for (int r = 0; r < RsGeometry.ROWS; r++) {
            rows.add(new Ports.Sink(sim, pk.rows.get(r)));
        }
        // route exhausted (HopPtr == HopNum), then a port above 23 written into the raw bits, then a good one
        in.add(Packets.readRequest(1, RoutingField.of(3), 1, RoutingField.EMPTY).toBits().toBigInteger());
        BitVector bad = Packets.readRequest(2, RoutingField.of(5), 0, RoutingField.EMPTY).toBits();
        in.add(bad.with(org.flitkit.formats.th2.PacketLayout.HEAD.ROUTE, (30L << 5) | 1).toBigInteger());
        ManagementPacket good = Packets.readRequest(3, RoutingField.of(17), 0, RoutingField.EMPTY);
        in.add(good.toBits().toBigInteger());
        sim.reset();
        List<Ports.Endpoint> eps = new ArrayList<>(rows);
        eps.add(in);
        Ports.run(sim, 500, () -> rows.get(2).got.size() == 40, eps);
        assertThat(rows.get(2).got).isEqualTo(Packets.beats(good.advance().toBits(), 17));
        assertThat(sim.peek(pk.routeDrops)).isEqualTo(2);
        assertThat(rows.get(0).got).isEmpty();
        assertThat(rows.get(3).got).isEmpty();
    }

    @Test
    void streamsBackToBackPacketsAtFortyCyclesEach() {
        Ports.Source in = new Ports.Source(sim, pk.in);
        List<Ports.Sink> rows = new ArrayList<>();
        for (int r = 0; r < RsGeometry.ROWS; r++) {
            rows.add(new Ports.Sink(sim, pk.rows.get(r)));
        }
        for (int k = 0; k < 4; k++) {
            in.add(Packets.readRequest(k, RoutingField.of(6 * k), 0, RoutingField.EMPTY).toBits().toBigInteger());
        }
        sim.reset();
        List<Ports.Endpoint> eps = new ArrayList<>(rows);
        eps.add(in);
        Ports.run(sim, 500, () -> rows.stream().allMatch(s -> s.got.size() == 40), eps);
        long first = rows.get(0).at.get(0);
        for (int k = 0; k < 4; k++) {
            assertThat(rows.get(k).at.get(0) - first).as("packet %d starts", k).isEqualTo(40L * k);
            assertThat(rows.get(k).at.get(39) - rows.get(k).at.get(0)).isEqualTo(39);
        }
    }
}
