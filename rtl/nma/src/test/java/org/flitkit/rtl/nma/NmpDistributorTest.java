package org.flitkit.rtl.nma;

import org.flitkit.testbench.PulseCounter;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.rtl.nma.DistModel.Where;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link NmpDistributor} against the software reference {@link DistModel}: random good and broken packets
 * with random gaps, random backpressure on the three outputs and reg_access's {@code hold} emulated. Each
 * output carries exactly the model's packets in order (error responses bit for bit), and every drop and
 * dispatch pulses its flag once.
 */
@ExtendWith(TestbenchExtension.class)
class NmpDistributorTest {
    static final int ME = 0x0321;
    static final int PACKETS = 600;

    @ParameterizedTest
    @EnumSource(ChipType.class)
    void dispatchesDropsAndAnswersLikeTheModel(ChipType chip, RunConfig cfg) {
        try (Testbench<NmpDistributor> tb = Testbench.create(() -> new NmpDistributor(chip), cfg.part(chip.name()))) {
            NmpDistributor d = tb.dut();
            tb.sim().poke(d.chipId, ME);
            StreamPort in = StreamPort.of(d.in);
            StreamSource source = tb.add(new StreamSource("source", in).gaps(Throttle.busy(0.3)));
            Map<Where, InOrderScoreboard<BitVector>> outputs = new EnumMap<>(Where.class);
            Map<Where, Integer> expected = new EnumMap<>(Where.class);
            for (Where w : Where.values()) {
                expected.put(w, 0);
            }
            tb.add(new StreamMonitor("in_monitor", in).subscribe(b -> {
                BitVector p = TestPackets.bits(b);
                DistModel.Decision dec = DistModel.decide(p, chip, ME);
                expected.merge(dec.where(), 1, Integer::sum);
                if (outputs.containsKey(dec.where())) {
                    outputs.get(dec.where()).expect(dec.err() != null ? dec.err() : p);
                }
            }));
            StreamPort reg = StreamPort.of(d.reg);
            for (Map.Entry<Where, StreamPort> o : List.of(Map.entry(Where.REG, reg), Map.entry(Where.EEP, StreamPort.of(d.eep)),
                    Map.entry(Where.ERR, StreamPort.of(d.err)))) {
                String name = o.getKey().name().toLowerCase();
                InOrderScoreboard<BitVector> sb = tb.add(new InOrderScoreboard<>(name + "_scoreboard"));
                sb.format(TestPackets::show);
                outputs.put(o.getKey(), sb);
                tb.add(new StreamSink(name + "_sink", o.getValue()).backpressure(Throttle.busy(0.5)));
                tb.add(new StreamMonitor(name + "_monitor", o.getValue()).subscribe(b -> sb.observe(TestPackets.bits(b))));
            }
            tb.add(new RegAccessBusy("reg_access", reg, d));
            PulseCounter crc = tb.add(new PulseCounter("crc_drops", d.crcDrop));
            PulseCounter malformed = tb.add(new PulseCounter("malformed_drops", d.malformedDrop));
            PulseCounter destId = tb.add(new PulseCounter("destid_drops", d.destIdDrop));
            PulseCounter dispatched = tb.add(new PulseCounter("dispatched", d.dispatched));

            RandomGenerator rnd = tb.rng("packets");
            for (int i = 0; i < PACKETS; i++) {
                source.send(DistModel.randomPacket(rnd, chip, ME).toBigInteger());
            }
            tb.reset(1);
            tb.runUntil("every packet taken and dispatched",
                    () -> source.idle() && outputs.values().stream().allMatch(InOrderScoreboard::isEmpty), 20_000);
            tb.run(10); // the last packet's drop comes after it was taken, and after up to 4 cycles of hold
            tb.finish();

            assertThat(List.of(crc.count(), malformed.count(), destId.count())).as("CRC, malformed, DestID drops")
                    .containsExactly((long) expected.get(Where.DROP_CRC), (long) expected.get(Where.DROP_MALFORMED),
                            (long) expected.get(Where.DROP_DESTID));
            assertThat(dispatched.count()).isEqualTo(expected.get(Where.REG) + expected.get(Where.EEP) + expected.get(Where.ERR));
            for (Where w : Where.values()) {
                assertThat(expected.get(w)).as("category %s exercised", w).isPositive();
            }
        }
    }

    /** Emulates reg_access being busy for 1..4 cycles after it takes each register request: drives {@code hold}. */
    static final class RegAccessBusy extends Component {
        private final StreamPort reg;
        private final NmpDistributor d;
        private int left;

        RegAccessBusy(String name, StreamPort reg, NmpDistributor d) {
            super(name);
            this.reg = reg;
            this.d = d;
        }

        @Override
        protected void reset() {
            left = 0;
            sim().poke(d.hold, 0);
        }

        @Override
        protected void drive() {
            sim().poke(d.hold, left > 0 ? 1 : 0);
        }

        @Override
        protected void sample() {
            if (sim().peek(reg.valid()) != 0 && sim().peek(reg.ready()) != 0) {
                left = 1 + rng().nextInt(4);
            } else if (left > 0) {
                left--;
            }
        }
    }
}
