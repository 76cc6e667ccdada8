package org.flitkit.testbench.example;

import java.math.BigInteger;
import org.flitkit.testbench.Rng;
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

/** The README's example test. */
@ExtendWith(TestbenchExtension.class) // one seed per test, printed on failure; -Dflitkit.vcd=DIR for waves
class AddOneTest {
    @Test
    void addsOneToEveryValue(RunConfig cfg) {
        try (Testbench<AddOne> tb = Testbench.create(AddOne::new, cfg)) {
            StreamPort in = StreamPort.of(tb.dut().in);
            StreamPort out = StreamPort.of(tb.dut().out);
            StreamSource source = tb.add(new StreamSource("source", in).gaps(Throttle.busy(0.3)));
            tb.add(new StreamSink("sink", out).backpressure(Throttle.busy(0.3)));
            InOrderScoreboard<BigInteger> scoreboard = tb.add(new InOrderScoreboard<>("scoreboard"));
            tb.add(new StreamMonitor("in_monitor", in).subscribe(v -> scoreboard.expect(v.add(BigInteger.ONE).mod(BigInteger.TWO.pow(16)))));
            tb.add(new StreamMonitor("out_monitor", out).subscribe(scoreboard::observe));

            Rng data = tb.rng("data");
            for (int i = 0; i < 1_000; i++) {
                source.send(data.bits(16));
            }
            tb.reset(1);
            tb.runUntil("1000 values through", () -> scoreboard.matched() == 1_000, 10_000);
            tb.finish();
        }
    }
}
