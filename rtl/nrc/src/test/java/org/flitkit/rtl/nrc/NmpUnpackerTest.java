package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.packet.FrameSource;
import org.flitkit.testbench.packet.PacketCodec;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** nmp_unpacker: 40 beats become one 792-bit packet; the four rows are served round-robin, packet by packet. */
@ExtendWith(TestbenchExtension.class)
class NmpUnpackerTest {
    /** A packet on the unpacker's output with the port tag it reports for it ({@code inPort}). */
    record Unpacked(BigInteger bits, int port) {
    }

    /** A packet source per row, a sink on the output and a scoreboard of what leaves, in order, with its port. */
    static final class Env {
        final List<FrameSource<List<BigInteger>>> rows = new ArrayList<>();
        final InOrderScoreboard<Unpacked> scoreboard;

        Env(Testbench<NmpUnpacker> tb, Throttle backpressure) {
            NmpUnpacker u = tb.dut();
            for (int r = 0; r < RsGeometry.TH2.rows(); r++) {
                rows.add(tb.add(new FrameSource<>("row" + r, StreamPort.of(u.rows.get(r)), PacketCodec.beats())));
            }
            StreamPort out = StreamPort.of(u.out);
            tb.add(new StreamSink("sink", out).backpressure(backpressure));
            scoreboard = tb.add(new InOrderScoreboard<>("scoreboard"));
            // inPort is read in the cycle the packet is taken
            tb.add(new StreamMonitor("out_monitor", out).checkHoldEveryCycle().subscribe(v -> scoreboard.observe(new Unpacked(v, (int) tb.sim().peek(u.inPort)))));
        }

        /** Queues {@code packet} entering at {@code port} on row {@code row}. */
        void send(int row, BitVector packet, int port) {
            rows.get(row).send(TestPackets.beats(packet, port));
        }
    }

    @Test
    void servesSaturatedRowsRoundRobinAndReassemblesEveryPacket(RunConfig cfg) {
        try (Testbench<NmpUnpacker> tb = Testbench.create(NmpUnpacker::new, cfg)) {
            Env env = new Env(tb, Throttle.NONE);
            List<List<Unpacked>> byRow = new ArrayList<>();
            for (int r = 0; r < RsGeometry.TH2.rows(); r++) {
                int port = RsGeometry.TH2.port(r, RsGeometry.TH2.lastCol());
                List<Unpacked> sent = new ArrayList<>();
                for (int k = 0; k < 3; k++) {
                    BitVector p = TestPackets.arrived(100 * r + k).toBits();
                    env.send(r, p, port);
                    sent.add(new Unpacked(p.toBigInteger(), port));
                }
                byRow.add(sent);
            }
            // packet order: row 0, 1, 2, 3, 0, 1, ... (ports 5, 11, 17, 23), each packet whole
            for (int k = 0; k < 3; k++) {
                for (int r = 0; r < RsGeometry.TH2.rows(); r++) {
                    env.scoreboard.expect(byRow.get(r).get(k));
                }
            }
            tb.reset(1);
            long cycles = tb.runUntil("12 packets out", () -> env.scoreboard.matched() == 12, 1_000);
            tb.finish();
            // 12 packets x 40 beats at one beat per cycle with no idle cycle between rows, then the flit and
            // packet deserializers (2 cycles, as in docs/th2-nrc.md: 43 = 40 + 1 + 1 + 2); the packet is
            // taken in the cycle it is offered
            assertThat(cycles).isEqualTo(12 * 40 + 2);
        }
    }

    @Test
    void unevenLoadStillAlternates(RunConfig cfg) {
        try (Testbench<NmpUnpacker> tb = Testbench.create(NmpUnpacker::new, cfg)) {
            Env env = new Env(tb, Throttle.random(0.5));
            List<Unpacked> row0 = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                BitVector p = TestPackets.arrived(k).toBits();
                env.send(0, p, 0);
                row0.add(new Unpacked(p.toBigInteger(), 0));
            }
            BitVector q = TestPackets.arrived(77).toBits();
            env.send(2, q, 12);
            for (Unpacked u : List.of(row0.get(0), new Unpacked(q.toBigInteger(), 12), row0.get(1), row0.get(2), row0.get(3))) {
                env.scoreboard.expect(u);
            }
            tb.reset(1);
            tb.runUntil("5 packets out", () -> env.scoreboard.matched() == 5, 2_000);
            tb.finish();
        }
    }
}
