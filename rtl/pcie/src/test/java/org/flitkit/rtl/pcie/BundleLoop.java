package org.flitkit.rtl.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.testbench.Component;
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
 * A host-interface bundle as a valid/ready stream through a two-entry queue: random beats in with random gaps,
 * out under random backpressure, each compared whole (scoreboard) and field by field by name, so every field
 * must keep its own bits at its documented width (docs/host-pcie.md, "Device-side rules").
 */
public final class BundleLoop<T extends Bundle> extends Module {
    public final Decoupled<T> in;
    public final Decoupled<T> out;

    public BundleLoop(Supplier<T> gen) {
        in = input(Decoupled.of(gen));
        out = output(Decoupled.of(gen));
        Queue<T> q = instance(new Queue<>(gen, 2));
        q.enq.connect(in);
        out.connect(q.deq);
    }

    /** Field name to width, in declaration order (the order a stream payload packs them, first in the top bits). */
    static Map<String, Integer> widths(Bundle b) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (Map.Entry<String, Data> e : b.elements().entrySet()) {
            m.put(e.getKey(), ((Bits) e.getValue()).width());
        }
        return m;
    }

    /** Sends {@code count} random beats of {@code gen}'s bundle through the loop and checks each one out. */
    static <T extends Bundle> void run(RunConfig cfg, Supplier<T> gen, int count) {
        try (Testbench<BundleLoop<T>> tb = Testbench.create(() -> new BundleLoop<>(gen), cfg)) {
            StreamPort in = StreamPort.of(tb.dut().in);
            StreamPort out = StreamPort.of(tb.dut().out);
            Map<String, Integer> fields = widths(tb.dut().in.bits);
            StreamSource source = tb.add(new StreamSource("device", in).gaps(Throttle.busy(0.3)));
            tb.add(new StreamSink("host", out).backpressure(Throttle.busy(0.4)));
            InOrderScoreboard<BigInteger> beats = tb.add(new InOrderScoreboard<>("beats"));
            FieldCheck fieldCheck = tb.add(new FieldCheck(tb.dut().out, fields));
            tb.add(new StreamMonitor("in_monitor", in).subscribe(beats::expect));
            tb.add(new StreamMonitor("out_monitor", out).checkHoldEveryCycle().subscribe(beats::observe));
            Rng rnd = tb.rng("beats");
            for (int i = 0; i < count; i++) {
                Map<String, BigInteger> values = new LinkedHashMap<>();
                BigInteger packed = BigInteger.ZERO;
                for (Map.Entry<String, Integer> f : fields.entrySet()) {
                    BigInteger v = rnd.bits(f.getValue());
                    values.put(f.getKey(), v);
                    packed = packed.shiftLeft(f.getValue()).or(v);
                }
                fieldCheck.expected.add(values);
                source.send(packed);
            }
            tb.reset(1);
            tb.runUntil(count + " beats through", () -> beats.matched() == count, 20L * count);
            tb.finish();
            assertThat(fieldCheck.checked).isEqualTo(count);
        }
    }

    /** At each beat taken from {@code out}, every field read by name must hold the value the beat was built with. */
    static final class FieldCheck extends Component {
        final Decoupled<? extends Bundle> port;
        final Map<String, Integer> fields;
        final ArrayDeque<Map<String, BigInteger>> expected = new ArrayDeque<>();
        long checked;

        FieldCheck(Decoupled<? extends Bundle> port, Map<String, Integer> fields) {
            super("field_check");
            this.port = port;
            this.fields = fields;
        }

        @Override
        protected void sample() {
            if (sim().peek(port.valid) == 0 || sim().peek(port.ready) == 0) {
                return;
            }
            Map<String, BigInteger> want = expected.poll();
            for (String name : fields.keySet()) {
                BigInteger got = sim().peekBig((Bits) port.bits.get(name));
                got = got.signum() < 0 ? got.add(BigInteger.ONE.shiftLeft(fields.get(name))) : got;
                checkEqual("field " + name + " of beat " + checked, want.get(name), got);
            }
            checked++;
        }
    }
}
