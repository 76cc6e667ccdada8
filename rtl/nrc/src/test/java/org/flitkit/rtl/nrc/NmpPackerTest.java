package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.testbench.Recorder;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.packet.PacketCodec;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** nmp_packer: each packet goes to the row of its port Route.Hop[HopPtr], tagged with it, with HopPtr + 1. */
@ExtendWith(TestbenchExtension.class)
class NmpPackerTest {
    /** The 40 tagged beats of one packet on one row. */
    record OnRow(int row, List<BigInteger> beats) {
    }

    /** A source of whole packets, a sink and a 40-beat packet monitor per row, and a scoreboard keyed by row. */
    static final class Env {
        final StreamSource in;
        final List<StreamMonitor> rowBeats = new ArrayList<>();
        final OutOfOrderScoreboard<Integer, OnRow> scoreboard;

        Env(Testbench<NmpPacker> tb, Throttle backpressure) {
            NmpPacker pk = tb.dut();
            in = tb.add(new StreamSource("in", StreamPort.of(pk.in)));
            scoreboard = tb.add(new OutOfOrderScoreboard<>("scoreboard", OnRow::row));
            for (int r = 0; r < RsGeometry.TH2.rows(); r++) {
                int row = r;
                StreamPort out = StreamPort.of(pk.rows.get(r));
                tb.add(new StreamSink("row" + r, out).backpressure(backpressure));
                FrameMonitor<List<BigInteger>> m = tb.add(new FrameMonitor<>("row" + r + "_mon", out,
                        Framing.fixed(RsGeometry.BEATS_PER_PACKET), PacketCodec.beats()).checkHoldEveryCycle()
                        .subscribe(b -> scoreboard.observe(new OnRow(row, b))));
                rowBeats.add(m.beats());
            }
        }

        /** Sends {@code m}, which must leave on the row of {@code port}, advanced and tagged with it. */
        void send(ManagementPacket m, int port) {
            scoreboard.expect(new OnRow(RsGeometry.TH2.row(port), TestPackets.beats(m.advance().toBits(), port)));
            in.send(m.toBits().toBigInteger());
        }
    }

    @Test
    void routesEveryPortToItsRowWithHopPtrIncremented(RunConfig cfg) {
        try (Testbench<NmpPacker> tb = Testbench.create(NmpPacker::new, cfg)) {
            Env env = new Env(tb, Throttle.random(0.7));
            for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
                // the current hop is the second of three: Hop[1] = p
                env.send(TestPackets.readRequest(p, RoutingField.of(9, p, 4), 1, RoutingField.of(0)), p);
            }
            tb.reset(1);
            tb.runUntil("24 packets out", env.scoreboard::isEmpty, 5_000);
            tb.finish();
            assertThat(tb.sim().peek(tb.dut().routeDrops)).isZero();
        }
    }

    @Test
    void dropsAndCountsPacketsWithNoUsableHop(RunConfig cfg) {
        try (Testbench<NmpPacker> tb = Testbench.create(NmpPacker::new, cfg)) {
            Env env = new Env(tb, Throttle.NONE);
            // route exhausted (HopPtr == HopNum), then a port above 23 written into the raw bits, then a good one
            env.in.send(TestPackets.readRequest(1, RoutingField.of(3), 1, RoutingField.EMPTY).toBits().toBigInteger());
            BitVector bad = TestPackets.readRequest(2, RoutingField.of(5), 0, RoutingField.EMPTY).toBits();
            env.in.send(bad.with(org.flitkit.formats.th2.PacketLayout.HEAD.ROUTE, (30L << 5) | 1).toBigInteger());
            env.send(TestPackets.readRequest(3, RoutingField.of(17), 0, RoutingField.EMPTY), 17);
            tb.reset(1);
            // only the good packet may leave, on row 2 (the scoreboard fails on anything else)
            tb.runUntil("the good packet out", env.scoreboard::isEmpty, 500);
            tb.run(50);
            tb.finish();
            assertThat(tb.sim().peek(tb.dut().routeDrops)).isEqualTo(2);
            assertThat(env.scoreboard.matched()).isEqualTo(1);
        }
    }

    @Test
    void streamsBackToBackPacketsAtFortyCyclesEach(RunConfig cfg) {
        try (Testbench<NmpPacker> tb = Testbench.create(NmpPacker::new, cfg)) {
            Env env = new Env(tb, Throttle.NONE);
            List<Recorder<BigInteger>> rows = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                Recorder<BigInteger> r = new Recorder<>(tb);
                env.rowBeats.get(k).subscribe(r);
                rows.add(r);
                env.send(TestPackets.readRequest(k, RoutingField.of(6 * k), 0, RoutingField.EMPTY), 6 * k);
            }
            tb.reset(1);
            tb.runUntil("4 packets out", env.scoreboard::isEmpty, 500);
            tb.finish();
            long first = rows.get(0).cycle(0);
            for (int k = 0; k < 4; k++) {
                assertThat(rows.get(k).cycle(0) - first).as("packet %d starts", k).isEqualTo(40L * k);
                assertThat(rows.get(k).cycle(39) - rows.get(k).cycle(0)).isEqualTo(39);
            }
        }
    }
}
