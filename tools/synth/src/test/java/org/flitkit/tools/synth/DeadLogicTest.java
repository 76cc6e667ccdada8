package org.flitkit.tools.synth;

import org.flitkit.hdl.verilog.VerilogEmitter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SrcLoc;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/**
 * Logic whose value reaches nothing observable is reported at elaboration with the line that declared
 * it, left out of the Verilog (which stays lint clean without waivers for it), and still simulated.
 */
class DeadLogicTest {
    /** A pass-through with a counter nobody reads, fed by a wire, and a memory nobody reads. */
    static final class WithDeadLogic extends Module {
        final UInt in = input(UInt(8));
        final UInt out = output(UInt(8));
        final SrcLoc feedAt;
        final UInt feed;
        final SrcLoc counterAt;
        final UInt counter;
        final SrcLoc logAt;
        final Mem<UInt> log;

        WithDeadLogic() {
            feedAt = SrcLoc.here(); feed = wire(UInt(8));
            counterAt = SrcLoc.here(); counter = regInit(UInt(8), 0);
            logAt = SrcLoc.here(); log = mem(4, UInt(8));
            feed.assign(in.add(1));
            counter.assign(counter.add(feed));
            log.write(counter.trunc(2), in);
            out.assign(in);
        }
    }

    @Test
    void deadLogicIsReportedWithItsLine() {
        Circuit c = Circuit.elaborate(WithDeadLogic::new);
        WithDeadLogic top = (WithDeadLogic) c.top();
        assertThat(top.counterAt.toString()).startsWith("DeadLogicTest.java:");
        assertThat(c.warnings()).extracting(Circuit.Warning::signal)
                .containsExactly("withDeadLogic.counter", "withDeadLogic.feed", "withDeadLogic.log");
        assertThat(c.warnings()).extracting(Circuit.Warning::loc).containsExactly(top.counterAt, top.feedAt, top.logAt);
        assertThat(c.warnings().get(0).message()).isEqualTo("register withDeadLogic.counter (" + top.counterAt
                + ") drives nothing: its value reaches no output, child input, memory write or check;"
                + " it is simulated but left out of the Verilog");
        assertThat(top.isDead(top.counter)).isTrue();
        assertThat(top.isDead(top.in)).isFalse();
    }

    @Test
    void deadLogicIsLeftOutOfTheVerilogAndLintStaysClean() {
        Circuit c = Circuit.elaborate(WithDeadLogic::new);
        VerilogTestSupport.Emitted e = VerilogTestSupport.emitAndCheck(c, "dead-logic");
        String v = e.text("WithDeadLogic");
        assertThat(v).doesNotContainPattern("\\b(counter|feed|log)\\b").doesNotContain("lint_off")
                .doesNotContain("clk").contains("  assign out = in;\n");
        // still simulated: the counter adds in + 1 on every edge
        Simulator sim = Simulator.of(c);
        sim.poke("withDeadLogic.in", 4);
        sim.reset();
        sim.step(3);
        assertThat(sim.peek("withDeadLogic.counter")).isEqualTo(15);
    }

    /** The same logic, all of it observed: through an output, a child input, a check. */
    static final class AllLive extends Module {
        final UInt in = input(UInt(8));
        final UInt out = output(UInt(8));
        final UInt feed = wire(UInt(8));
        final UInt counter = regInit(UInt(8), 0);
        final Mem<UInt> log = mem(4, UInt(8));
        final Pass child = instance(new Pass());

        AllLive() {
            feed.assign(in.add(1));
            counter.assign(counter.add(feed));
            log.write(counter.trunc(2), in);
            child.in.assign(log.read(in.trunc(2)));
            out.assign(child.out);
            check(counter.ne(200), "counter reached 200");
        }
    }

    static final class Pass extends Module {
        final UInt in = input(UInt(8));
        final UInt out = output(UInt(8));

        Pass() {
            out.assign(in);
        }
    }

    @Test
    void warningsArePrintedOnceAndACleanDesignPrintsNothing() {
        List<String> dead = stderrOf(() -> {
            Circuit c = Circuit.elaborate(WithDeadLogic::new);
            Simulator.of(c);
            new VerilogEmitter().emitResult(c);
            Simulator.of(c);
        });
        assertThat(dead).hasSize(3).allMatch(l -> l.startsWith("warning: ") && l.contains("drives nothing")
                || l.startsWith("warning: memory withDeadLogic.log (DeadLogicTest.java:"));
        assertThat(stderrOf(() -> Simulator.of(() -> new WithDeadLogic()))).hasSize(3);
        assertThat(stderrOf(() -> new VerilogEmitter().emit(Circuit.elaborate(WithDeadLogic::new)))).hasSize(3);
        assertThat(Circuit.elaborate(AllLive::new).warnings()).isEmpty();
        assertThat(stderrOf(() -> {
            Circuit c = Circuit.elaborate(AllLive::new);
            Simulator.of(c);
            new VerilogEmitter().emitResult(c);
        })).isEmpty();
    }

    private static List<String> stderrOf(Runnable r) {
        PrintStream old = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } finally {
            System.setErr(old);
        }
        String text = buf.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }
}
