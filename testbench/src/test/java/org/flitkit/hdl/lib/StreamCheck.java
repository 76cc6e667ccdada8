package org.flitkit.hdl.lib;

import java.math.BigInteger;
import java.util.List;
import java.util.function.UnaryOperator;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.scoreboard.InOrderScoreboard;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSink;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;

/**
 * The stdlib stream tests' environment: a source with random gaps into a block's input stream, a sink
 * with random backpressure on its output stream, and monitors on both feeding an in-order scoreboard
 * with what the output must carry for each beat the block took; the output must hold every beat it
 * offers, checked in each cycle of a stall.
 */
final class StreamCheck {
    final StreamSource source;
    final InOrderScoreboard<BigInteger> scoreboard;

    /** {@code reference}: the output beat expected for each input beat (the identity for queues and links). */
    StreamCheck(Testbench<?> tb, Decoupled<?> in, Decoupled<?> out, Throttle gaps, Throttle backpressure,
            UnaryOperator<BigInteger> reference) {
        StreamPort enq = StreamPort.of(in);
        StreamPort deq = StreamPort.of(out);
        source = tb.add(new StreamSource("source", enq).gaps(gaps));
        tb.add(new StreamSink("sink", deq).backpressure(backpressure));
        scoreboard = tb.add(new InOrderScoreboard<>("scoreboard"));
        tb.add(new StreamMonitor("in_monitor", enq).subscribe(v -> scoreboard.expect(reference.apply(v))));
        tb.add(new StreamMonitor("out_monitor", deq).checkHoldEveryCycle().subscribe(scoreboard::observe));
    }

    StreamCheck(Testbench<?> tb, Decoupled<?> in, Decoupled<?> out, Throttle gaps, Throttle backpressure) {
        this(tb, in, out, gaps, backpressure, UnaryOperator.identity());
    }

    /**
     * Resets the block, sends {@code values} and runs until every one is through (at most {@code maxCycles});
     * then the end-of-test checks. Returns the cycles from reset to the last value out.
     */
    long run(Testbench<?> tb, List<BigInteger> values, long maxCycles) {
        values.forEach(source::send);
        tb.reset(1);
        long cycles = tb.runUntil(values.size() + " values through", () -> scoreboard.matched() == values.size(), maxCycles);
        tb.finish();
        return cycles;
    }
}
