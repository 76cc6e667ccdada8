package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.flitkit.formats.th2.PacketWords;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** NmaCore with eep_access and the BootLoader built in, on a 24xx512 model: power-up load, then in-band access. */
@ExtendWith(TestbenchExtension.class)
class NmaCoreEepromTest {
    static final EepParams P = EepParams.FAST;

    /** The chip's NMA and its E2PROM on one board: a test top-level with the packet ports and the boot status. */
    static final class Board extends Module {
        final Decoupled<UInt> in = input(PacketWords.packetStream());
        final Decoupled<UInt> out = output(PacketWords.packetStream());
        final Bool bootDone = output(Bool());
        final Bool bootError = output(Bool());
        final UInt chipId = output(UInt(16));
        final Bool scl = wire(Bool());
        final Bool sda = wire(Bool());
        final NmaCore nma;
        final I2cEeprom eeprom;

        Board(ChipType chip, byte[] image) {
            nma = instance(new NmaCore(chip, chip.registerAddressBits(), 1, NmaCoreTest.FAULTS, List.of(), P));
            eeprom = instance(new I2cEeprom(P, image));
            nma.in.connect(in);
            out.connect(nma.out);
            nma.faults.assign(0);
            nma.extCrcDrop.assign(FALSE());
            nma.extDestIdDrop.assign(FALSE());
            I2cPins.bus(scl, sda, null, null, nma.pins, eeprom.pins);
            bootDone.assign(nma.bootDone);
            bootError.assign(nma.bootError);
            chipId.assign(nma.chipId);
        }
    }

    @Test
    void bootLoadsRegistersThenRegisterAndEepromRequestsAreAnswered(RunConfig cfg) {
        byte[] image = BootImage.build(List.of(new BootImage.Record(0x000, 0x0777),
                new BootImage.Record(0x009, 0xABCDL)));
        ChipType chip = ChipType.NIC;
        try (Testbench<Board> tb = Runs.atCoreClock(() -> new Board(chip, image), cfg, P)) {
            Board b = tb.dut();
            RandomGenerator rnd = tb.rng("headers");
            int me = 0x0777;
            ManagementPacket readScratch = TestPackets.header(rnd, chip, me).nmpType(NmpType.REG_READ_REQ)
                    .payload(RegisterPayload.of(0x009, 0x000)).build();
            ManagementPacket readMagic = TestPackets.header(rnd, chip, Th2.CHIP_ID_ANY).nmpType(NmpType.EEP_READ_REQ)
                    .payload(EepromPayload.of(0, 1, 2, 3)).build();
            ManagementPacket writeByte = TestPackets.header(rnd, chip, me).nmpType(NmpType.EEP_WRITE_REQ)
                    .payload(new EepromPayload(List.of(0x1000), List.of(0x5A))).build();
            ManagementPacket readBack = TestPackets.header(rnd, chip, me).nmpType(NmpType.EEP_READ_REQ)
                    .payload(EepromPayload.of(0x1000)).build();
            StreamPort in = StreamPort.of(b.in);
            StreamPort out = StreamPort.of(b.out);
            StreamSource source = tb.add(new StreamSource("source", in).gaps(Throttle.busy(0.3)));
            tb.add(new StreamSink("sink", out).backpressure(Throttle.busy(0.3)));
            InOrderScoreboard<BigInteger> answers = tb.add(new InOrderScoreboard<>("answers"));
            answers.format(TestPackets::show);
            tb.add(new StreamMonitor("in_monitor", in));
            tb.add(new StreamMonitor("out_monitor", out).subscribe(answers::observe));
            // sent while the power-up load still runs: held until it ends, then answered by the configured chip
            for (ManagementPacket p : List.of(readScratch, readMagic, writeByte, readBack)) {
                source.send(TestPackets.big(p));
            }
            answers.expect(TestPackets.big(readScratch.response(me, RegisterPayload.withData(0x009, 0xABCDL, 0x000, me))));
            answers.expect(TestPackets.big(readMagic.response(me,
                    EepromPayload.of(0, 1, 2, 3).answeredWith(List.of((int) 'T', (int) 'H', (int) '2', (int) 'C')))));
            answers.expect(TestPackets.big(writeByte.response(me, EepromPayload.of(0x1000))));
            answers.expect(TestPackets.big(readBack.response(me, EepromPayload.of(0x1000).answeredWith(List.of(0x5A)))));
            tb.reset(1);
            assertThat(tb.sim().peekBool(b.bootDone)).isFalse();
            tb.runUntil("four answers", answers::isEmpty, 2_000_000);
            tb.finish();
            assertThat(tb.sim().peekBool(b.bootDone)).isTrue();
            assertThat(tb.sim().peekBool(b.bootError)).isFalse();
            assertThat(tb.sim().peek(b.chipId)).isEqualTo(me);
        }
    }

    /**
     * E2PROM requests wait for eep_access in a queue of exactly {@link NmaCore#EEP_QUEUE_DEPTH} = 2 (docs/th2-nma.md,
     * "Ordering"): with one in eep_access and two queued, a fourth stays in the distributor and holds the register
     * read behind it until the first E2PROM access ends. So the answers leave as E1, R, E2, E3, E4; a queue of 1
     * gives E1, E2, R, E3, E4 and a queue of 3 gives R, E1, E2, E3, E4.
     */
    @Test
    void aRegisterReadWaitsBehindAnE2promRequestOnlyWhenTwoAlreadyQueue(RunConfig cfg) {
        byte[] image = BootImage.build(List.of(new BootImage.Record(0x000, 0x0777)));
        ChipType chip = ChipType.NIC;
        int me = 0x0777;
        try (Testbench<Board> tb = Runs.atCoreClock(() -> new Board(chip, image), cfg, P)) {
            Board b = tb.dut();
            RandomGenerator rnd = tb.rng("headers");
            StreamPort in = StreamPort.of(b.in);
            StreamPort out = StreamPort.of(b.out);
            StreamSource source = tb.add(new StreamSource("source", in));
            tb.add(new StreamSink("sink", out));
            InOrderScoreboard<BigInteger> answers = tb.add(new InOrderScoreboard<>("answers"));
            answers.format(TestPackets::show);
            tb.add(new StreamMonitor("out_monitor", out).subscribe(answers::observe));
            List<ManagementPacket> eeprom = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                eeprom.add(TestPackets.header(rnd, chip, me).nmpType(NmpType.EEP_READ_REQ).payload(EepromPayload.of(0, 1, 2, 3)).build());
            }
            ManagementPacket read = TestPackets.header(rnd, chip, me).nmpType(NmpType.REG_READ_REQ)
                    .payload(RegisterPayload.of(0x000, 0x000)).build();
            tb.reset(1);
            tb.runUntil("the power-up load", () -> tb.sim().peekBool(b.bootDone), 2_000_000);
            for (ManagementPacket p : eeprom) {
                source.send(TestPackets.big(p));
            }
            source.send(TestPackets.big(read));
            List<BigInteger> e = new ArrayList<>();
            for (ManagementPacket p : eeprom) {
                e.add(TestPackets.big(p.response(me, EepromPayload.of(0, 1, 2, 3).answeredWith(List.of((int) 'T', (int) 'H', (int) '2', (int) 'C')))));
            }
            BigInteger r = TestPackets.big(read.response(me, RegisterPayload.withData(0x000, me, 0x000, me)));
            for (BigInteger x : List.of(e.get(0), r, e.get(1), e.get(2), e.get(3))) {
                answers.expect(x);
            }
            tb.runUntil("five answers", answers::isEmpty, 2_000_000);
            tb.finish();
        }
    }
}
