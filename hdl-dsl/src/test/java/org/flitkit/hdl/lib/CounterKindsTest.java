package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.util.function.IntFunction;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/** Saturating, up/down and loadable counters, driven by a script of commands, one letter a cycle. */
class CounterKindsTest {
    static final class Top extends Module {
        final Bool up = input(Bool());
        final Bool down = input(Bool());
        final Bool clr = input(Bool());
        final Bool ld = input(Bool());
        final UInt ldValue = input(UInt(3));
        final UInt value = output(UInt(3));
        final Bool wrap = output(Bool());

        Top(IntFunction<Counter> kind, boolean canCountDown) {
            Counter c = kind.apply(6).named("credits");
            when(up, c::inc);
            if (canCountDown) {
                when(down, c::dec);
            }
            when(clr, c::clear);
            when(ld, () -> c.load(ldValue));
            value.assign(c.value);
            wrap.assign(c.wrap());
        }
    }

    /**
     * Runs {@code script}: {@code +} inc, {@code -} dec, {@code b} both, {@code c} clear, {@code 0}..{@code 5}
     * load that value, {@code .} nothing. Returns the value seen in each cycle, then {@code w} where wrap was high.
     */
    static String run(IntFunction<Counter> kind, boolean canCountDown, String script) {
        Simulator sim = Simulator.of(() -> new Top(kind, canCountDown));
        Top t = (Top) sim.circuit().top();
        sim.reset();
        StringBuilder sb = new StringBuilder();
        for (char ch : script.toCharArray()) {
            sim.poke(t.up, ch == '+' || ch == 'b');
            sim.poke(t.down, ch == '-' || ch == 'b');
            sim.poke(t.clr, ch == 'c');
            sim.poke(t.ld, Character.isDigit(ch));
            sim.poke(t.ldValue, Character.isDigit(ch) ? ch - '0' : 0);
            sb.append(sim.peek(t.value)).append(sim.peekBool(t.wrap) ? "w" : "");
            sim.step();
        }
        return sb.toString();
    }

    @Test
    void saturatingStopsAtTheTop() {
        assertThat(run(Counter::saturating, false, "++++++++c+")).isEqualTo("0123455550");
    }

    @Test
    void upDownWrapsBothWays() {
        assertThat(run(Counter::upDown, true, "-+++++++b-.")).isEqualTo("05w012345w005");
    }

    @Test
    void upDownSaturatingStopsAtBothEnds() {
        assertThat(run(Counter::upDownSaturating, true, "--++++++++-b3-")).isEqualTo("00012345555443");
    }

    @Test
    void loadAndClearWinOverCounting() {
        assertThat(run(Counter::new, false, "4+++c++")).isEqualTo("045w0101");
    }

    @Test
    void decOnAnUpCounterIsAnError() {
        assertThatThrownBy(() -> Simulator.of(() -> new Top(Counter::new, true)))
                .isInstanceOf(HdlException.class)
                .hasMessageContaining("this counter only counts up; make it with Counter.upDown(6) or Counter.upDownSaturating(6)");
    }
}
