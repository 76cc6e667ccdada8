package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;

/** What the generated simulator looks like where it decides speed: selects over a constant zero. */
class GeneratedCodeShapeTest {
    /** Three values written under conditions over a default of zero, as a decoder or a packet builder does. */
    public static final class Decode extends Module {
        public final UInt sel = input(UInt(2));
        public final UInt a = input(UInt(16));
        public final UInt b = input(UInt(16));
        public final UInt out = output(UInt(16));
        public final UInt held = output(UInt(16));

        public Decode() {
            UInt r = regInit(UInt(16), 0);
            UInt w = wire(UInt(16));
            w.assign(0);
            when(sel.eq(1), () -> w.assign(a)).elsewhen(sel.eq(2), () -> w.assign(b));
            r.assign(0);
            when(sel.eq(3), () -> r.assign(a.xor(b)));
            out.assign(w);
            held.assign(r);
        }
    }

    @Test
    void aSelectWithAZeroArmIsAMaskNotAnXorChain() {
        Simulator sim = Simulator.of(Decode::new);
        String src = sim.generatedSource();
        assertThat(src).doesNotContain("0x0L ^").doesNotContain("^ 0x0L");
        sim.reset();
        int[][] cases = {{0, 0}, {1, 0x1234}, {2, 0xABCD}, {3, 0}};
        for (int[] c : cases) {
            sim.poke("decode.sel", c[0]);
            sim.poke("decode.a", 0x1234);
            sim.poke("decode.b", 0xABCD);
            assertThat(sim.peek("decode.out")).as("sel=%d", c[0]).isEqualTo(c[1]);
            sim.step();
        }
        assertThat(sim.peek("decode.held")).isEqualTo(0x1234 ^ 0xABCD);
        sim.poke("decode.sel", 0);
        sim.step();
        assertThat(sim.peek("decode.held")).isZero();
    }
}
