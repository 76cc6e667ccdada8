package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.BootLoader;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.testbench.Recorder;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.packet.FrameMonitor;
import org.flitkit.testbench.packet.FrameSource;
import org.flitkit.testbench.packet.Framing;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.scoreboard.OutOfOrderScoreboard;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The integrated NRC with an erased E2PROM: the power-up load fails as documented (docs/th2-eeprom.md,
 * bootStatus MAGIC; docs/th2-nrc.md, fault input 73), and register reads entering a port are answered
 * out of the same port, nowhere else, with the in-chip latency of docs/th2-nrc.md ("Latency by port").
 */
@ExtendWith(TestbenchExtension.class)
class NrcSmokeTest {
    static final int PORT = 3;

    /** A register read entering {@code PORT} for this NRC, answered back out of it. */
    static ManagementPacket read(int tid, List<Integer> addresses) {
        return ManagementPacket.builder().route(RoutingField.EMPTY).returnRoute(RoutingField.of(PORT))
                .destType(ChipType.NRC).destId(0xFFFF).srcType(ChipType.NIC).srcId(1).destVp(1).srcVp(1)
                .transactionId(tid).nmpType(NmpType.REG_READ_REQ).payload(new RegisterPayload(addresses, List.of())).build();
    }

    @Test
    void erasedEepromFailsTheLoadAndReadsAreAnsweredThroughTheirPort(RunConfig cfg) {
        try (Testbench<Nrc> tb = Testbench.create(() -> new Nrc(EepParams.FAST, null), cfg)) {
            Nrc nrc = tb.dut();
            FrameSource<BitVector> in = tb.add(new FrameSource<>("port" + PORT + "_in", StreamPort.of(nrc.portIn.get(PORT)), TestPackets.FLITS));
            OutOfOrderScoreboard<Integer, TestPackets.AtPort> answers = tb.add(new OutOfOrderScoreboard<>("answers", TestPackets.AtPort::port));
            // nothing may leave toward the switch: every packet here is for this chip
            InOrderScoreboard<TestPackets.AtPort> transit = tb.add(new InOrderScoreboard<>("transit"));
            Recorder<TestPackets.AtPort> out = new Recorder<>(tb);
            for (int p = 0; p < RsGeometry.TH2.ports(); p++) {
                int port = p;
                StreamPort po = StreamPort.of(nrc.portOut.get(p));
                tb.add(new StreamSink("port" + p + "_out", po));
                tb.add(new FrameMonitor<>("port" + p + "_mon", po, Framing.fixed(Th2.PACKET_FLITS), TestPackets.FLITS).checkHoldEveryCycle()
                        .subscribe(b -> {
                            out.accept(new TestPackets.AtPort(port, b));
                            answers.observe(new TestPackets.AtPort(port, b));
                        }));
                StreamPort sw = StreamPort.of(nrc.toSwitch.get(p));
                tb.add(new StreamSink("switch" + p, sw));
                tb.add(new FrameMonitor<>("switch" + p + "_mon", sw, Framing.fixed(Th2.PACKET_FLITS), TestPackets.FLITS).checkHoldEveryCycle()
                        .subscribe(b -> transit.observe(new TestPackets.AtPort(port, b))));
            }
            tb.reset(2);
            long boot = tb.runUntil("the power-up load", () -> !tb.sim().peekBool(nrc.booting), 100_000);
            // the check pass reads the 4 magic bytes and the record count of the erased part (all 0xFF),
            // rejects the magic, reads one more byte with NACK and sends STOP: 1055 cycles at FAST timing
            assertThat(boot).isEqualTo(1055);
            assertThat(tb.sim().peek(nrc.nma.bootStatus)).isEqualTo(BootLoader.ERR_MAGIC);
            assertThat(tb.sim().peekBool(nrc.bootDone)).isTrue();
            assertThat(tb.sim().peekBool(nrc.bootError)).isTrue();

            // CHIP_ID is still 0xFFFF (not configured); FAULT_STATUS shows EEPROM_LOAD_FAILED (fault input 73)
            assertThat(NrcRegisters.faultInput(FaultCode.EEPROM_LOAD_FAILED.code(), FaultCode.CHIP_LEVEL_PORT)).isEqualTo(73);
            long[] latency = new long[3];
            List<List<Long>> values = List.of(List.of(), List.of(0xFFFFL), List.of(0xFFFFL, 1L << FaultCode.EEPROM_LOAD_FAILED.code()));
            for (int n = 1; n <= 2; n++) {
                ManagementPacket req = read(76 + n, n == 1 ? List.of(0x000) : List.of(0x000, 0x012));
                ManagementPacket answer = req.response(0xFFFF, ((RegisterPayload) req.payload()).answeredWith(values.get(n)));
                answers.expect(new TestPackets.AtPort(PORT, answer.advance().toBits()));
                long sent = tb.cycle();
                in.send(req.toBits());
                tb.runUntil("the answer to a " + n + "-register read", answers::isEmpty, 1_000);
                latency[n] = out.cycle(out.size() - 1) - sent;
            }
            tb.finish();
            // docs/th2-nrc.md, "Latency by port": 3 relay stations each way (port 3), read1 94, read2 95 cycles
            assertThat(RsGeometry.TH2.hopsToNma(PORT)).isEqualTo(3);
            assertThat(latency[1]).isEqualTo(94);
            assertThat(latency[2]).isEqualTo(95);
        }
    }
}
