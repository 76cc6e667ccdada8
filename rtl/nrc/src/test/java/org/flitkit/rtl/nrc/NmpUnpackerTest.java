package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.formats.th2.BitVector;
import org.junit.jupiter.api.Test;

/** nmp_unpacker: 40 beats become one 792-bit packet; the four rows are served round-robin, packet by packet. */
class NmpUnpackerTest {
    @Test
    void servesSaturatedRowsRoundRobinAndReassemblesEveryPacket() {
        Simulator sim = Simulator.of(NmpUnpacker::new);
        NmpUnpacker u = (NmpUnpacker) sim.circuit().top();
        Waves.start(sim, "nmp-unpacker-fairness");
        List<Ports.Endpoint> eps = new ArrayList<>();
        List<BitVector> sent = new ArrayList<>();
        for (int r = 0; r < RsGeometry.ROWS; r++) {
            Ports.Source s = new Ports.Source(sim, u.rows.get(r));
            for (int k = 0; k < 3; k++) {
                BitVector p = Packets.arrived(100 * r + k).toBits();
                sent.add(p);
                s.addAll(Packets.beats(p, RsGeometry.port(r, RsGeometry.LAST_COL)));
            }
            eps.add(s);
        }
        Ports.Sink out = new Ports.Sink(sim, u.out);
        List<Integer> ports = new ArrayList<>();
        eps.add(out);
        eps.add(new Ports.Endpoint() {
            public void drive() {
            }

            public void sample() {
                if (sim.peekBool(u.out.valid)) {
                    ports.add((int) sim.peek(u.inPort));
                }
            }
        });
        sim.reset();
        long cycles = Ports.run(sim, 1_000, () -> out.got.size() == 12, eps);
        sim.stopVcd();
        // packet order: row 0, 1, 2, 3, 0, 1, ... each packet whole
        List<BigInteger> expected = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            for (int r = 0; r < RsGeometry.ROWS; r++) {
                expected.add(sent.get(3 * r + k).toBigInteger());
            }
        }
        assertThat(out.got).isEqualTo(expected);
        assertThat(ports.subList(0, 4)).containsExactly(5, 11, 17, 23);
        // one beat per cycle: 12 packets x 40 beats, plus the reassembly pipeline
        assertThat(cycles).isBetween(480L, 490L);
    }

    @Test
    void unevenLoadStillAlternates() {
        Simulator sim = Simulator.of(NmpUnpacker::new);
        NmpUnpacker u = (NmpUnpacker) sim.circuit().top();
        Ports.Source row0 = new Ports.Source(sim, u.rows.get(0));
        Ports.Source row2 = new Ports.Source(sim, u.rows.get(2));
        List<BigInteger> a = new ArrayList<>();
        List<BigInteger> c = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            BitVector p = Packets.arrived(k).toBits();
            a.add(p.toBigInteger());
            row0.addAll(Packets.beats(p, 0));
        }
        BitVector q = Packets.arrived(77).toBits();
        c.add(q.toBigInteger());
        row2.addAll(Packets.beats(q, 12));
        Ports.Sink out = new Ports.Sink(sim, u.out, new Random(3), 0.5);
        Ports.Source empty1 = new Ports.Source(sim, u.rows.get(1));
        Ports.Source empty3 = new Ports.Source(sim, u.rows.get(3));
        sim.reset();
        Ports.run(sim, 2_000, () -> out.got.size() == 5, List.of(row0, row2, empty1, empty3, out));
        assertThat(out.got).containsExactly(a.get(0), c.get(0), a.get(1), a.get(2), a.get(3));
    }
}
