package org.flitkit.tools.difftest;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Op;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.sim.Simulator;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomProgramTest {
    @Test
    void sameSeedSameProgram() {
        Program a = RandomProgram.generate(42, RandomProgram.Shape.standard());
        Program b = RandomProgram.generate(42, RandomProgram.Shape.standard());
        assertThat(a.toJava("X", java.util.Map.of())).isEqualTo(b.toJava("X", java.util.Map.of()));
    }

    /** step(n) runs the fast evaluation variant; it must reach the same state as n single steps. */
    @Test
    void batchedStepsMatchSingleSteps() {
        for (long seed = 200; seed < 240; seed++) {
            Program p = RandomProgram.generate(seed, RandomProgram.Shape.standard());
            Simulator one = Simulator.of(Circuit.elaborate(() -> new ProgramDesign("S", p)));
            Simulator many = Simulator.of(Circuit.elaborate(() -> new ProgramDesign("S", p)));
            java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
            one.reset();
            many.reset();
            for (int batch = 0; batch < 12; batch++) {
                for (Bits in : one.circuit().netlist().inputs()) {
                    java.math.BigInteger v = new java.math.BigInteger(in.width(), new java.util.Random(r.nextLong()));
                    if (in.isSigned() && v.testBit(in.width() - 1)) {
                        v = v.subtract(java.math.BigInteger.ONE.shiftLeft(in.width()));
                    }
                    one.poke(in, v);
                    many.poke(many.signal(in.path()), v);
                }
                int n = 1 + r.nextInt(9);
                for (int k = 0; k < n; k++) {
                    one.step();
                }
                many.step(n);
                for (String sig : one.signalNames()) {
                    assertThat(many.peekBig(sig)).as("seed %d batch %d %s", seed, batch, sig).isEqualTo(one.peekBig(sig));
                }
            }
        }
    }

    /**
     * Design D58 of {@code ./hdl difftest --seed 20261126} compared a 5-bit wire with the replicate of a 167-bit
     * literal, which elaboration folds to a constant too wide for the comparison: every design of that seed must
     * elaborate (values computed from a literal count as possible constants).
     */
    @Test
    void everyDesignOfASeedThatOnceComparedAFoldedConstantElaborates() {
        RandomProgram.Shape shape = RandomProgram.Shape.standard().forReference("verilator");
        for (DiffRunner.Design d : DiffRunner.randomDesigns(150, 20261126L, shape)) {
            try {
                Circuit.elaborate(d.maker());
            } catch (RuntimeException e) {
                throw new AssertionError(d.name() + " does not elaborate", e);
            }
        }
    }

    @Test
    void hundredsOfRandomDesignsElaborateSimulateAndCoverEveryOperation() {
        Set<Op> seen = EnumSet.noneOf(Op.class);
        Set<Kind> kinds = EnumSet.noneOf(Kind.class);
        boolean wide = false;
        for (long seed = 1; seed <= 120; seed++) {
            Program p = RandomProgram.generate(seed, RandomProgram.Shape.standard());
            Circuit c;
            try {
                c = Circuit.elaborate(() -> new ProgramDesign("R" + 0, p));
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + " does not elaborate:\n" + p.toJava("R", java.util.Map.of()), e);
            }
            for (Bits n : c.netlist().combOrder()) {
                if (n.op() != null) {
                    seen.add(n.op());
                }
                kinds.add(n.kind());
                wide |= n.width() > 64;
            }
            c.netlist().regs().forEach(r -> kinds.add(r.kind()));
            c.netlist().syncReads().forEach(r -> kinds.add(r.kind()));
            Simulator sim = Simulator.of(c);
            sim.compileVariants();
            assertThat(sim.stats().maxMethodBytes()).as("HotSpot does not JIT methods over 8000 bytes").isLessThan(8000);
            sim.reset();
            sim.step(20);
        }
        assertThat(seen).containsAll(EnumSet.complementOf(EnumSet.noneOf(Op.class)));
        assertThat(kinds).contains(Kind.REG, Kind.WIRE, Kind.MEM_SYNC_READ, Kind.OUTPUT, Kind.INPUT);
        assertThat(wide).isTrue();
    }
}
