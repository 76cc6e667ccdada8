package org.flitkit.rtl.nma.hw;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Random;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.TestPackets;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Crc32cHwTest {

    @Test
    void matchesTheSoftwareCrcOnRandomBitsAndRandomPackets(@TempDir Path dir) {
        Simulator sim = Simulator.of(Crc32cHw::new);
        Crc32cHw c = (Crc32cHw) sim.circuit().top();
        sim.startVcd(dir.resolve("crc.vcd"));
        Random rnd = new Random(42);
        for (int i = 0; i < 300; i++) {
            BigInteger v = new BigInteger(Th2.PACKET_BITS, rnd);
            sim.poke(c.packet, v);
            sim.step();
            assertThat(sim.peek(c.crc)).as("random bits #%d", i)
                    .isEqualTo(Integer.toUnsignedLong(PacketLayout.crcOf(TestPackets.bits(v))));
        }
        for (int i = 0; i < 100; i++) {
            ManagementPacket p = TestPackets.registerRequest(rnd, org.flitkit.formats.th2.ChipType.NRC, 0x1234, 15);
            sim.poke(c.packet, TestPackets.big(p));
            sim.step();
            assertThat(sim.peek(c.crc)).isEqualTo(p.toBits().get(PacketLayout.CRC));
        }
        sim.stopVcd();
    }

    @Test
    void hopPtrAndCrcFieldsAreNotCovered() {
        for (int i = 0; i < 32; i++) {
            BigInteger m = Crc32cHw.mask(i);
            for (int b = PacketLayout.HOP_PTR.lsb(); b <= PacketLayout.HOP_PTR.msb(); b++) {
                assertThat(m.testBit(b)).isFalse();
            }
            for (int b = PacketLayout.CRC.lsb(); b <= PacketLayout.CRC.msb(); b++) {
                assertThat(m.testBit(b)).isFalse();
            }
        }
        assertThat(Crc32cHw.constant()).isEqualTo(Integer.toUnsignedLong(PacketLayout.crcOf(BitVector.zero(Th2.PACKET_BITS))));
    }
}
