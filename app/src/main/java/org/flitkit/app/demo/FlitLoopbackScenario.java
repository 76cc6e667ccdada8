package org.flitkit.app.demo;

import java.math.BigInteger;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.Hex;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;

/**
 * Testbench for {@link FlitLoopback}: a source sends random 198-bit flits with random gaps, a sink
 * takes them with random backpressure, monitors on both ports feed an in-order scoreboard, which
 * checks that every flit arrives exactly once, in order, unchanged.
 */
public final class FlitLoopbackScenario {
    /** The counts of the PASS line. */
    public static final java.util.Map<String, String> COUNTS = ScenarioResult.legend("flits", "flits matched in order by the scoreboard");

    /** Probability that the source idles a cycle before offering a flit. */
    static final double SOURCE_GAPS = 0.3;
    /** Probability that the sink is not ready in a cycle. */
    static final double SINK_BACKPRESSURE = 0.3;
    /** After the stimulus stops, the flits still in flight must come out within this many cycles. */
    static final long DRAIN_TIMEOUT = 10_000;

    private FlitLoopbackScenario() {
    }

    public static ScenarioResult run(RunConfig config) {
        try (Testbench<FlitLoopback> tb = Testbench.create(FlitLoopback::new, config)) {
            FlitLoopback dut = tb.dut();
            StreamPort in = StreamPort.of(dut.in);
            StreamPort out = StreamPort.of(dut.out);
            Rng flits = tb.rng("flits");

            StreamSource source = tb.add(new StreamSource("source", in)
                    .gaps(Throttle.busy(SOURCE_GAPS))
                    .generate(() -> flits.bits(FlitLoopback.FLIT_WIDTH)));
            tb.add(new StreamSink("sink", out).backpressure(Throttle.busy(SINK_BACKPRESSURE)));
            InOrderScoreboard<BigInteger> scoreboard = tb.add(new InOrderScoreboard<>("scoreboard"));
            scoreboard.format(f -> Hex.of(f, FlitLoopback.FLIT_WIDTH));
            tb.add(new StreamMonitor("in_monitor", in).subscribe(scoreboard::expect));
            tb.add(new StreamMonitor("out_monitor", out).subscribe(scoreboard::observe));

            SerialLink link = dut.link;
            tb.traces(dut.in.valid, dut.in.ready, dut.in.bits,
                    link.ser.out.valid, link.ser.out.ready, link.ser.out.bits, link.fifo.count,
                    link.deser.in.valid, link.deser.in.ready, link.deser.in.bits,
                    dut.out.valid, dut.out.ready, dut.out.bits);

            tb.reset(2);
            tb.run(config.cycles());
            source.stop();
            tb.runUntil("delivery of the flits in flight", () -> source.idle() && scoreboard.isEmpty(), DRAIN_TIMEOUT);
            tb.finish();
            return tb.result().with("flits", scoreboard.matched());
        }
    }
}
