package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.hw.PacketBits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NmaCore with eep_access and the BootLoader built in, on a 24xx512 model: power-up load, then in-band access. */
class NmaCoreEepromTest {
    static final EepParams P = EepParams.FAST;

    static final class Board extends Module {
        final Decoupled<UInt> in = input(PacketBits.packetStream());
        final Decoupled<UInt> out = output(PacketBits.packetStream());
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
    void bootLoadsRegistersThenRegisterAndEepromRequestsAreAnswered(@TempDir Path dir) {
        byte[] image = BootImage.build(List.of(new BootImage.Record(0x000, 0x0777),
                new BootImage.Record(0x009, 0xABCDL)));
        ChipType chip = ChipType.NIC;
        Simulator sim = Simulator.of(() -> new Board(chip, image));
        Board b = (Board) sim.circuit().top();
        sim.reset();
        sim.startVcd(dir.resolve("nma_core_eeprom.vcd"));
        Random rnd = new Random(4);
        int me = 0x0777;
        ManagementPacket readScratch = TestPackets.header(rnd, chip, me).nmpType(NmpType.REG_READ_REQ)
                .payload(RegisterPayload.of(0x009, 0x000)).build();
        ManagementPacket readMagic = TestPackets.header(rnd, chip, Th2.CHIP_ID_ANY).nmpType(NmpType.EEP_READ_REQ)
                .payload(EepromPayload.of(0, 1, 2, 3)).build();
        ManagementPacket writeByte = TestPackets.header(rnd, chip, me).nmpType(NmpType.EEP_WRITE_REQ)
                .payload(new EepromPayload(List.of(0x1000), List.of(0x5A))).build();
        ManagementPacket readBack = TestPackets.header(rnd, chip, me).nmpType(NmpType.EEP_READ_REQ)
                .payload(EepromPayload.of(0x1000)).build();
        // sent while the power-up load still runs: held until it ends, then answered by the configured chip
        Streams.Source src = new Streams.Source(sim, b.in, rnd, 1.0);
        for (ManagementPacket p : List.of(readScratch, readMagic, writeByte, readBack)) {
            src.add(TestPackets.big(p));
        }
        Streams.Sink sink = new Streams.Sink(sim, b.out, rnd, 0.7);
        Streams.run(sim, 2_000_000, () -> sink.received.size() == 4, src, sink);
        sim.stopVcd();
        assertThat(sim.peekBool(b.bootDone)).isTrue();
        assertThat(sim.peekBool(b.bootError)).isFalse();
        assertThat(sim.peek(b.chipId)).isEqualTo(me);
        List<BigInteger> got = sink.received;
        assertThat(got.get(0)).isEqualTo(TestPackets.big(readScratch.response(me,
                RegisterPayload.withData(0x009, 0xABCDL, 0x000, me))));
        assertThat(got.get(1)).isEqualTo(TestPackets.big(readMagic.response(me,
                EepromPayload.of(0, 1, 2, 3).answeredWith(List.of((int) 'T', (int) 'H', (int) '2', (int) 'C')))));
        assertThat(got.get(2)).isEqualTo(TestPackets.big(writeByte.response(me, EepromPayload.of(0x1000))));
        assertThat(got.get(3)).isEqualTo(TestPackets.big(readBack.response(me, EepromPayload.of(0x1000).answeredWith(List.of(0x5A)))));
    }
}
