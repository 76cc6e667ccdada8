package org.flitkit.rtl.nma.hw;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.TestPackets;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link Crc32cHw}: the packet CRC in hardware against the software CRC-32C, and what it covers. */
@ExtendWith(TestbenchExtension.class)
class Crc32cHwTest {

    @Test
    void matchesTheSoftwareCrcOnRandomBitsAndRandomPackets(RunConfig cfg) {
        try (Testbench<Crc32cHw> tb = Testbench.create(Crc32cHw::new, cfg)) {
            Simulator sim = tb.sim();
            Crc32cHw c = tb.dut();
            Rng rnd = tb.rng("packets");
            for (int i = 0; i < 300; i++) {
                BigInteger v = rnd.bits(Th2.PACKET_BITS);
                sim.poke(c.packet, v);
                tb.run(1);
                assertThat(sim.peek(c.crc)).as("random bits #%d", i)
                        .isEqualTo(Integer.toUnsignedLong(PacketLayout.crcOf(TestPackets.bits(v))));
            }
            for (int i = 0; i < 100; i++) {
                ManagementPacket p = TestPackets.registerRequest(rnd, org.flitkit.formats.th2.ChipType.NRC, 0x1234, 15);
                sim.poke(c.packet, TestPackets.big(p));
                tb.run(1);
                assertThat(sim.peek(c.crc)).isEqualTo(p.toBits().get(PacketLayout.CRC));
            }
        }
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
