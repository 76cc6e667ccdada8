package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.*;
import static org.flitkit.hdl.lib.OneHot.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OneHotTest {
    static final class Top extends Module {
        final UInt x;
        final UInt pe;
        final UInt peOH;
        final UInt pop;
        final UInt rev;
        final UInt oh;
        final UInt ohNarrow;
        final UInt back;

        Top(int w) {
            x = input(UInt(w));
            pe = output(UInt(log2Up(w)));
            peOH = output(UInt(w));
            pop = output(UInt(log2Up(w + 1))); // connecting a wider sum would be an error
            rev = output(UInt(w));
            int idxW = Math.min(w, 4);
            oh = output(UInt(1 << idxW));
            ohNarrow = output(UInt(5));
            back = output(UInt(idxW));

            pe.assign(PriorityEncoder(x));
            peOH.assign(PriorityEncoderOH(x));
            pop.assign(PopCount(x));
            rev.assign(Reverse(x));
            UInt idx = x.trunc(idxW);
            oh.assign(UIntToOH(idx));
            ohNarrow.assign(UIntToOH(idx, 5));
            back.assign(OHToUInt(oh));
        }
    }

    /** Exhaustive over every input value, against Java's own bit arithmetic. */
    @ParameterizedTest(name = "width={0}")
    @ValueSource(ints = {1, 2, 5, 8, 13})
    void conversionsMatchJavaForEveryValue(int w) {
        Simulator sim = Simulator.of(() -> new Top(w));
        Top t = (Top) sim.circuit().top();
        int idxW = Math.min(w, 4);
        for (long v = 0; v < 1L << w; v++) {
            sim.poke(t.x, v);
            String at = "x=" + v;
            long lowest = Long.numberOfTrailingZeros(v);
            assertThat(sim.peek(t.pe)).as(at + " PriorityEncoder").isEqualTo(v == 0 ? w - 1 : lowest);
            assertThat(sim.peek(t.peOH)).as(at + " PriorityEncoderOH").isEqualTo(Long.lowestOneBit(v));
            assertThat(sim.peek(t.pop)).as(at + " PopCount").isEqualTo(Long.bitCount(v));
            assertThat(sim.peek(t.rev)).as(at + " Reverse").isEqualTo(Long.reverse(v) >>> (64 - w));
            long idx = v & ((1L << idxW) - 1);
            assertThat(sim.peek(t.oh)).as(at + " UIntToOH").isEqualTo(1L << idx);
            assertThat(sim.peek(t.ohNarrow)).as(at + " UIntToOH(.., 5)").isEqualTo(idx < 5 ? 1L << idx : 0);
            assertThat(sim.peek(t.back)).as(at + " OHToUInt").isEqualTo(idx);
        }
    }

    @Test
    void log2HelpersAndFullPopCount() {
        Simulator sim = Simulator.of(() -> new Top(13));
        Top t = (Top) sim.circuit().top();
        assertThat(log2Ceil(1)).isZero();
        assertThat(log2Ceil(198)).isEqualTo(8);
        assertThat(log2Up(1)).isEqualTo(1);
        assertThat(isPow2(64)).isTrue();
        assertThat(isPow2(65)).isFalse();
        sim.poke(t.x, (1 << 13) - 1);
        assertThat(sim.peek(t.pop)).isEqualTo(13);
    }
}
