package org.flitkit.rtl.nma;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.hdl.UInt;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Hex;
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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link NmpCollector} (docs/th2-nma.md, "Collector"): four inputs with random gaps, random backpressure on
 * the output. Every packet taken at an input must leave unchanged, in that order; each output offer must
 * carry the packet of the highest-priority input offering when it began (register, E2PROM, error
 * responses, fault reports), and that grant must hold while the output is stalled.
 */
@ExtendWith(TestbenchExtension.class)
class NmpCollectorTest {
    static final int PER_INPUT = 60;
    /** Input names in priority order, highest first (NmpCollector.REG .. REPORT). */
    static final List<String> INPUTS = List.of("reg", "eep", "err", "report");

    @ParameterizedTest
    @ValueSource(doubles = {0.2, 0.6, 1.0})
    void everyPacketLeavesWholeInFixedPriorityOrder(double readyProb, RunConfig cfg) {
        try (Testbench<NmpCollector> tb = Testbench.create(NmpCollector::new, cfg.part("ready" + readyProb))) {
            NmpCollector c = tb.dut();
            List<StreamPort> ins = List.of(StreamPort.of(c.reg), StreamPort.of(c.eep), StreamPort.of(c.err), StreamPort.of(c.report));
            StreamPort out = StreamPort.of(c.out);
            InOrderScoreboard<BigInteger> collected = tb.add(new InOrderScoreboard<>("collected"));
            collected.format(TestPackets::show);
            RandomGenerator rnd = tb.rng("packets");
            List<StreamSource> sources = new ArrayList<>();
            for (int k = 0; k < ins.size(); k++) {
                StreamSource s = tb.add(new StreamSource(INPUTS.get(k), ins.get(k)).gaps(Throttle.random(0.3)));
                for (int i = 0; i < PER_INPUT; i++) {
                    // a real packet, tagged with its input and number in its TransactionID
                    s.send(TestPackets.big(TestPackets.registerRequest(rnd, ChipType.NRC, 1, 15).toBuilder()
                            .transactionId(k << 8 | i).build()));
                }
                sources.add(s);
                tb.add(new StreamMonitor(INPUTS.get(k) + "_monitor", ins.get(k)).subscribe(collected::expect));
            }
            tb.add(new StreamSink("sink", out).backpressure(Throttle.random(readyProb)));
            FixedPriority priority = tb.add(new FixedPriority("priority", ins, out, c.chosen));
            tb.add(new StreamMonitor("out_monitor", out).subscribe(collected::observe));
            tb.reset(1);
            tb.runUntil("every packet collected", () -> collected.matched() == ins.size() * PER_INPUT, 50_000);
            tb.finish();
            assertThat(sources).allMatch(StreamSource::idle);
            assertThat(priority.offers()).isEqualTo(ins.size() * PER_INPUT);
            // the priority rule was exercised, not only single offers
            assertThat(priority.contested()).as("offers with several inputs valid").isGreaterThan(PER_INPUT);
        }
    }

    /**
     * Checks the collector's documented arbitration: when the output starts offering a packet, it is the
     * one on the highest-priority valid input and {@code chosen} names that input; while the output is
     * stalled the grant does not move.
     */
    static final class FixedPriority extends Component {
        private final List<StreamPort> ins;
        private final StreamPort out;
        private final UInt chosen;
        private int granted = -1;
        private long offers;
        private long contested;

        FixedPriority(String name, List<StreamPort> ins, StreamPort out, UInt chosen) {
            super(name);
            this.ins = ins;
            this.out = out;
            this.chosen = chosen;
        }

        long offers() {
            return offers;
        }

        long contested() {
            return contested;
        }

        @Override
        protected void reset() {
            granted = -1;
        }

        @Override
        protected void sample() {
            if (sim().peek(out.valid()) == 0) {
                granted = -1;
                return;
            }
            int got = (int) sim().peek(chosen);
            if (granted >= 0) {
                if (got != granted) {
                    throw fail("grant moved from " + INPUTS.get(granted) + " to " + INPUTS.get(got) + " while the output was stalled");
                }
            } else {
                int first = -1;
                int valid = 0;
                for (int k = ins.size() - 1; k >= 0; k--) {
                    if (sim().peek(ins.get(k).valid()) != 0) {
                        first = k;
                        valid++;
                    }
                }
                if (first < 0) {
                    throw fail("the output offers a packet while no input is valid");
                }
                if (got != first) {
                    throw fail("chosen = " + INPUTS.get(got) + ", but " + INPUTS.get(first) + " is the highest-priority valid input");
                }
                BigInteger offered = out.peekBits(sim());
                BigInteger expected = ins.get(first).peekBits(sim());
                if (!offered.equals(expected)) {
                    throw fail("the output offers a packet that is not the one on " + INPUTS.get(first) + "\n  input:  "
                            + Hex.of(expected, out.width()) + "\n  output: " + Hex.of(offered, out.width()));
                }
                granted = first;
                offers++;
                contested += valid > 1 ? 1 : 0;
            }
            if (sim().peek(out.ready()) != 0) {
                granted = -1;
            }
        }
    }
}
