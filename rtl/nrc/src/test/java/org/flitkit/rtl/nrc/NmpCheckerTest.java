package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.format.BitVector;
import org.flitkit.rtl.nma.format.PacketLayout;
import org.junit.jupiter.api.Test;

/** CRC and DestID gate: bad packets are dropped and counted, before and after CHIP_ID is configured. */
class NmpCheckerTest {
    @Test
    void dropsCorruptedAndForeignPacketsAndCountsThem() {
        Simulator sim = Simulator.of(NmpChecker::new);
        NmpChecker c = (NmpChecker) sim.circuit().top();
        Waves.start(sim, "nmp-checker");
        BitVector any = Packets.arrived(1).toBits();
        BitVector to42 = Packets.arrived(2).toBuilder().destId(0x42).build().toBits();
        BitVector corrupted = any.flip(400);
        BitVector hopPtrChanged = any.with(PacketLayout.HOP_PTR, 0); // HopPtr is outside the CRC
        Ports.Source in = new Ports.Source(sim, c.in);
        Ports.Sink out = new Ports.Sink(sim, c.out);
        sim.reset();
        sim.poke(c.chipId, 0xFFFF);
        for (BitVector p : List.of(any, to42, corrupted, hopPtrChanged)) {
            in.add(p.toBigInteger());
        }
        Ports.run(sim, 100, in::done, List.of(in, out));
        assertThat(out.got).containsExactly(any.toBigInteger(), hopPtrChanged.toBigInteger());
        assertThat(sim.peek(c.crcErrors)).isEqualTo(1);
        assertThat(sim.peek(c.destIdDrops)).isEqualTo(1);

        sim.poke(c.chipId, 0x42);
        BitVector to43 = Packets.arrived(3).toBuilder().destId(0x43).build().toBits();
        BitVector badAndForeign = to43.flip(700);
        for (BitVector p : List.of(to42, any, to43, badAndForeign)) {
            in.add(p.toBigInteger());
        }
        out.got.clear();
        Ports.run(sim, 100, in::done, List.of(in, out));
        sim.stopVcd();
        assertThat(out.got).containsExactly(to42.toBigInteger(), any.toBigInteger());
        assertThat(sim.peek(c.crcErrors)).isEqualTo(2);
        assertThat(sim.peek(c.destIdDrops)).isEqualTo(2);
        assertThat(out.got).allMatch(b -> !b.equals(BigInteger.ZERO));
    }
}
