package org.flitkit.hdl.difftest;

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
            sim.reset();
            sim.step(20);
        }
        assertThat(seen).containsAll(EnumSet.complementOf(EnumSet.noneOf(Op.class)));
        assertThat(kinds).contains(Kind.REG, Kind.WIRE, Kind.MEM_SYNC_READ, Kind.OUTPUT, Kind.INPUT);
        assertThat(wide).isTrue();
    }
}
