package org.flitkit.tools.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.SrcLoc;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.ChecksTest;
import org.flitkit.hdl.sim.SimAssertionError;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hdl.check and Hdl.printf in the emitted Verilog: Verilator and Icarus fail and print where our
 * simulator does, on the counter of {@link ChecksTest}.
 */
class VerilogChecksTest {
    @ParameterizedTest
    @ValueSource(strings = {"verilator", "icarus"})
    void aFailingAssertionStopsTheVerilogSimulationInTheSameCycle(String simulator) {
        Circuit c = Circuit.elaborate(() -> new ChecksTest.Top(5));
        SrcLoc at = ((ChecksTest.Top) c.top()).counter.checkAt;
        Simulator sim = Simulator.of(c);
        sim.poke("top.en", 1);
        sim.reset();
        assertThatThrownBy(() -> sim.step(20)).isInstanceOfSatisfying(SimAssertionError.class,
                e -> assertThat(e.cycle()).isEqualTo(6));

        VerilogTestSupport.Emitted e = VerilogTestSupport.emitAndCheck(c, "checks-fail-" + simulator);
        assertThat(VerilogTools.yosysSynth(e.files(), null).ok()).as("yosys synth -auto-top").isTrue();
        assertThat(e.text("Counter")).contains("`ifndef SYNTHESIS\n  always @(posedge clk) begin\n    if (!reset) begin\n")
                .contains("$fatal(1, \"assertion failed in %m (" + at + "): count reached %0d\", r);");
        TbScript tb = new TbScript(e, c.top());
        tb.reset(true).poke("en", 1).mark("C 0").step().reset(false);
        for (int cycle = 1; cycle < 20; cycle++) {
            tb.mark("C " + cycle).step();
        }
        VerilogTools.Result r = tb.runRaw(simulator);
        assertThat(r.ok()).as("%s", r).isFalse();
        String instance = simulator.equals("verilator") ? "TOP.tb.dut.counter" : "tb.dut.counter";
        String failure = "assertion failed in " + instance + " (" + at + "): count reached 5";
        assertThat(r.output()).as("%s", r).contains(failure);
        // the last cycle announced before the failure is cycle 6, as in our simulator
        String before = r.output().substring(0, r.output().indexOf(failure));
        assertThat(before.substring(before.lastIndexOf("C "))).startsWith("C 6\n");
    }

    /** A counter and a signed accumulator printed in several formats on odd counts, and a line on every edge. */
    static final class Printer extends Module {
        final Bool en = input(Bool());
        final UInt out = output(UInt(8));
        final UInt r = regInit(UInt(8), 0);
        final SInt s = regInit(SInt(8), 0);

        Printer() {
            when(en, () -> {
                r.assign(r.add(1));
                s.assign(s.sub(slit(3, 3)));
            });
            out.assign(r);
            UInt wide = cat(r, r.not(), lit(0x123456789L, 48), r);
            when(r.bit(0), () -> printf("r=%d s=%d sx=%x sb=%b wide=%x %%\n", r, s, s, s, wide));
            printf("edge\n"); // on every edge out of reset
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"verilator", "icarus"})
    void printfOutputMatchesOurSimulator(String simulator) {
        Circuit c = Circuit.elaborate(Printer::new);
        VerilogTestSupport.Emitted e = VerilogTestSupport.emitAndCheck(c, "checks-printf-" + simulator);
        Simulator sim = Simulator.of(c);
        StringBuilder ours = new StringBuilder();
        sim.setPrintSink(ours::append);
        TbScript tb = new TbScript(e, c.top());
        sim.reset();
        tb.reset(true).mark("C 0").step().reset(false);
        for (int cycle = 1; cycle < 30; cycle++) {
            boolean en = cycle % 7 != 3;
            sim.poke("printer.en", en ? 1 : 0);
            sim.step();
            tb.poke("en", en ? 1 : 0).mark("C " + cycle).step();
        }
        List<String> expected = List.of(ours.toString().split("\n"));
        // 29 edges out of reset, 12 of them with an odd count
        assertThat(expected).hasSize(29 + 12).contains("r=1 s=-3 sx=fd sb=11111101 wide=1fe00012345678901 %");
        List<String> printed = new ArrayList<>();
        for (String line : simulator.equals("verilator") ? VerilogTestSupport.simulateVerilator(e, tb.text())
                : VerilogTestSupport.simulate(e, tb.text())) {
            if (!line.startsWith("C ") && !line.contains("$finish")) {
                printed.add(line);
            }
        }
        assertThat(printed).isEqualTo(expected);
    }
}
