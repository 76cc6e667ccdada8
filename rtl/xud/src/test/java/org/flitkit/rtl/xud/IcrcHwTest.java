package org.flitkit.rtl.xud;

import org.flitkit.formats.xud.XudFormat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.zip.CRC32;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link IcrcHw}: the ICRC in logic against CRC-32 computed in software over the container's bytes 0..67
 * (docs/xud.md, "Packet container"), on random containers and on packets of the software codec.
 */
@ExtendWith(TestbenchExtension.class)
class IcrcHwTest {
    /** The ICRC of one container input, combinational. */
    public static final class Harness extends Module {
        public final UInt container = input(UInt(XudFormat.CONTAINER_BITS));
        public final UInt icrc = output(UInt(32));

        public Harness() {
            icrc.assign(IcrcHw.of(container));
        }
    }

    /** CRC-32 of bytes 0..67 of {@code container} (byte 0 most significant), computed without {@link XudFormat}. */
    static long crc32OfCoveredBytes(BigInteger container) {
        byte[] all = new byte[XudFormat.CONTAINER_BYTES];
        byte[] raw = container.toByteArray();
        int n = Math.min(raw.length, all.length);
        System.arraycopy(raw, raw.length - n, all, all.length - n, n);
        CRC32 crc = new CRC32();
        crc.update(all, 0, XudFormat.CONTAINER_BYTES - 4);
        return crc.getValue();
    }

    @Test
    void matchesCrc32OnRandomContainersAndIgnoresItsOwnField(RunConfig cfg) {
        try (Testbench<Harness> tb = Testbench.create(Harness::new, cfg)) {
            Simulator sim = tb.sim();
            Rng rnd = tb.rng("containers");
            for (int i = 0; i < 300; i++) {
                BigInteger c = rnd.bits(XudFormat.CONTAINER_BITS);
                sim.poke(tb.dut().container, c);
                tb.run(1);
                long expected = crc32OfCoveredBytes(c);
                assertThat(sim.peek(tb.dut().icrc)).as("container #%d", i).isEqualTo(expected);
                assertThat(XudFormat.icrc(c)).isEqualTo(expected);
                // the ICRC field itself is not covered: another value there gives the same ICRC
                sim.poke(tb.dut().container, XudFormat.ICRC.set(c, rnd.bits(32)));
                tb.run(1);
                assertThat(sim.peek(tb.dut().icrc)).isEqualTo(expected);
            }
        }
    }

    @Test
    void everyCoveredBitChangesTheIcrc(RunConfig cfg) {
        try (Testbench<Harness> tb = Testbench.create(Harness::new, cfg)) {
            Simulator sim = tb.sim();
            sim.poke(tb.dut().container, BigInteger.ZERO);
            long zero = sim.peek(tb.dut().icrc);
            assertThat(zero).isEqualTo(crc32OfCoveredBytes(BigInteger.ZERO));
            for (int bit = XudFormat.ICRC.width(); bit < XudFormat.CONTAINER_BITS; bit++) {
                BigInteger one = BigInteger.ONE.shiftLeft(bit);
                sim.poke(tb.dut().container, one);
                assertThat(sim.peek(tb.dut().icrc)).as("bit %d", bit).isEqualTo(crc32OfCoveredBytes(one)).isNotEqualTo(zero);
            }
        }
    }

    @Test
    void equalsTheIcrcFieldOfCodecPackets(RunConfig cfg) {
        try (Testbench<Harness> tb = Testbench.create(Harness::new, cfg)) {
            Simulator sim = tb.sim();
            Rng rnd = tb.rng("packets");
            for (int i = 0; i < 100; i++) {
                byte[] payload = new byte[rnd.nextInt(XudFormat.MTU_BYTES + 1)];
                rnd.nextBytes(payload);
                BigInteger data = new XudFormat.DataPacket(rnd.nextInt(1 << 16), rnd.nextInt(1 << 16), rnd.nextInt(1 << 24),
                        rnd.nextInt(1 << 24), rnd.nextInt(XudFormat.PSN_MOD), rnd.nextInt() & 0xFFFF_FFFFL, rnd.nextInt(1 << 16),
                        rnd.nextInt() & 0xFFFF_FFFFL, payload).encode();
                BigInteger ack = new XudFormat.AckPacket(rnd.nextInt(1 << 16), rnd.nextInt(1 << 16), rnd.nextInt(1 << 24),
                        rnd.nextInt(256), rnd.nextInt(XudFormat.PSN_MOD)).encode();
                for (BigInteger pkt : new BigInteger[] {data, ack}) {
                    sim.poke(tb.dut().container, pkt);
                    assertThat(sim.peek(tb.dut().icrc)).isEqualTo(XudFormat.ICRC.get(pkt)).isEqualTo(crc32OfCoveredBytes(pkt));
                }
            }
        }
    }

    @Test
    void aContainerOfAnotherWidthIsRefusedByName() {
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Module() {
            final UInt x = input(UInt(64));
            final UInt y = output(UInt(32));

            {
                y.assign(IcrcHw.of(x));
            }
        })).isInstanceOf(HdlException.class).hasMessageContaining("IcrcHw needs a 576-bit container, got 64");
    }
}
