package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Kind;
import org.flitkit.tools.difftest.DiffRunner;
import org.flitkit.tools.difftest.ReferenceSim;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.ExternalTools;
import org.flitkit.testbench.Rng;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two link layers with random stimulus (rare bit errors, cuts, BIST runs, chip ID changes: {@link LinkPairStress})
 * in our simulator and in Verilator on the emitted Verilog: every output equal on every cycle.
 * docs/th2-link.md, "Verilog".
 */
class LinkDiffTest {
    @Test
    void linkPairMatchesVerilator(@TempDir Path dir) {
        ExternalTools.require("verilator", "verilator");
        DiffRunner.Report r = new DiffRunner(ReferenceSim.byName("verilator"), dir, new PrintStream(System.out, true))
                .run(List.of(new DiffRunner.Design("link-pair-stress", LinkPairStress::new, null)), 1500, 5);
        assertThat(r.summary()).isEqualTo("designs=1 cycles=1500 mismatches=0");
    }

    /** The stress design under random inputs does what the difftest is meant to cover: link-up, replays, BIST, IDENT. */
    @Test
    void randomInputsExerciseTheLink() {
        Simulator sim = Simulator.of(LinkPairStress::new);
        LinkPairStress d = (LinkPairStress) sim.circuit().top();
        Rng rng = new Rng(5);
        sim.reset(1);
        List<Bits> inputs = d.ports().stream().filter(b -> b.kind() == Kind.INPUT).toList();
        long narrowest = 8;
        for (int c = 0; c < 3000; c++) {
            for (Bits in : inputs) {
                sim.poke(in, rng.bits(in.width()));
            }
            sim.step();
            long w = sim.peek(d.aStatus.width);
            narrowest = w != 0 ? Math.min(narrowest, w) : narrowest;
        }
        assertThat(narrowest).as("dead lanes narrowed the link").isLessThan(8);
        assertThat(sim.peek(d.aStatus.handshakes)).isPositive();
        assertThat(sim.peek(d.aStatus.flitsReceived)).isGreaterThan(150);
        assertThat(sim.peek(d.aStatus.retransmitted) + sim.peek(d.bStatus.retransmitted)).isPositive();
        assertThat(sim.peek(d.bBist.framesTested) + sim.peek(d.aBist.framesTested)).isPositive();
        assertThat(sim.peek(d.bStatus.neighbour) >>> 32).isEqualTo(1);
    }
}
