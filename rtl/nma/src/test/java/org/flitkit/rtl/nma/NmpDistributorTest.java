package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nma.DistModel.Where;
import org.flitkit.formats.th2.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class NmpDistributorTest {
    @ParameterizedTest
    @EnumSource(ChipType.class)
    void dispatchesDropsAndAnswersLikeTheModel(ChipType chip, @TempDir Path dir) {
        int me = 0x0321;
        Simulator sim = Simulator.of(() -> new NmpDistributor(chip));
        NmpDistributor d = (NmpDistributor) sim.circuit().top();
        sim.reset();
        sim.startVcd(dir.resolve("distributor.vcd"));
        sim.poke(d.chipId, me);
        Random rnd = new Random(77 + chip.ordinal());
        Streams.Source src = new Streams.Source(sim, d.in, rnd, 0.7);
        Streams.Sink reg = new Streams.Sink(sim, d.reg, rnd, 0.5);
        Streams.Sink eep = new Streams.Sink(sim, d.eep, rnd, 0.5);
        Streams.Sink err = new Streams.Sink(sim, d.err, rnd, 0.5);
        Map<Where, List<BigInteger>> expected = new EnumMap<>(Where.class);
        for (Where w : Where.values()) {
            expected.put(w, new ArrayList<>());
        }
        for (int i = 0; i < 600; i++) {
            BitVector p = DistModel.randomPacket(rnd, chip, me);
            DistModel.Decision dec = DistModel.decide(p, chip, me);
            src.add(p.toBigInteger());
            expected.get(dec.where()).add(dec.err() != null ? dec.err().toBigInteger() : p.toBigInteger());
        }
        long[] drops = new long[3];
        long[] dispatched = new long[1];
        // hold emulates reg_access being busy for a few cycles after it takes each register request
        Streams.Endpoint hold = new Streams.Endpoint() {
            int left;

            @Override
            public void drive() {
                sim.poke(d.hold, left > 0);
            }

            @Override
            public void sample() {
                if (!reg.firedAt.isEmpty() && reg.firedAt.get(reg.firedAt.size() - 1) == sim.cycle()) {
                    left = 1 + rnd.nextInt(4);
                } else if (left > 0) {
                    left--;
                }
            }
        };
        long[] idle = new long[1];
        Streams.run(sim, 20_000, () -> src.done() && idle[0]++ > 50,
                () -> {
                    drops[0] += sim.peek(d.crcDrop);
                    drops[1] += sim.peek(d.malformedDrop);
                    drops[2] += sim.peek(d.destIdDrop);
                    dispatched[0] += sim.peek(d.dispatched);
                },
                src, reg, eep, err, hold);
        sim.stopVcd();
        assertThat(new long[] {reg.received.size(), eep.received.size(), err.received.size(), drops[0], drops[1], drops[2]})
                .as("reg, eep, err, crc, malformed, destid").containsExactly(expected.get(Where.REG).size(), expected.get(Where.EEP).size(),
                        expected.get(Where.ERR).size(), expected.get(Where.DROP_CRC).size(), expected.get(Where.DROP_MALFORMED).size(),
                        expected.get(Where.DROP_DESTID).size());
        for (int i = 0; i < err.received.size(); i++) {
            assertThat(TestPackets.bits(err.received.get(i))).as("error response %d", i).isEqualTo(TestPackets.bits(expected.get(Where.ERR).get(i)));
        }
        assertThat(reg.received).isEqualTo(expected.get(Where.REG));
        assertThat(eep.received).isEqualTo(expected.get(Where.EEP));
        assertThat(err.received).isEqualTo(expected.get(Where.ERR));
        assertThat(drops).containsExactly(expected.get(Where.DROP_CRC).size(), expected.get(Where.DROP_MALFORMED).size(),
                expected.get(Where.DROP_DESTID).size());
        assertThat(dispatched[0]).isEqualTo(expected.get(Where.REG).size() + expected.get(Where.EEP).size() + expected.get(Where.ERR).size());
        for (Where w : Where.values()) {
            assertThat(expected.get(w)).as("category %s exercised", w).isNotEmpty();
        }
    }
}
