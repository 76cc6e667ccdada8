package org.flitkit.hdl.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.util.Random;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CounterTest {
    /** One counter advanced by {@code en}, one driven with inc()/clear() inside when blocks. */
    static final class Top extends Module {
        final Bool en = input(Bool());
        final Bool inc = input(Bool());
        final Bool clr = input(Bool());
        final UInt value;
        final Bool wrap = output(Bool());
        final UInt manual;
        final Bool manualWrap = output(Bool());
        final Bool manualLast = output(Bool());

        Top(int n) {
            Counter c = Counter.enabled(en, n);
            value = output(UInt(c.value.width()));
            value.assign(c.value);
            wrap.assign(c.wrap());
            Counter m = new Counter(n).named("beat");
            manual = output(UInt(m.value.width()));
            when(inc, () -> manualWrap.assign(m.inc())).otherwise(() -> manualWrap.assign(FALSE()));
            when(clr, m::clear);
            manual.assign(m.value);
            manualLast.assign(m.isLast());
        }
    }

    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 8, 10})
    void countsModuloNAndSignalsWrap(int n) {
        Simulator sim = Simulator.of(() -> new Top(n));
        Top t = (Top) sim.circuit().top();
        sim.reset();
        Random rnd = new Random(n);
        int value = 0;
        int manual = 0;
        int wraps = 0;
        for (int c = 0; c < 300; c++) {
            boolean en = rnd.nextInt(4) != 0;
            boolean inc = rnd.nextInt(3) != 0;
            boolean clr = rnd.nextInt(10) == 0;
            sim.poke(t.en, en);
            sim.poke(t.inc, inc);
            sim.poke(t.clr, clr);
            assertThat(sim.peek(t.value)).as("cycle %d", c).isEqualTo(value);
            assertThat(sim.peekBool(t.wrap)).as("cycle %d wrap", c).isEqualTo(en && value == n - 1);
            assertThat(sim.peek(t.manual)).as("cycle %d manual", c).isEqualTo(manual);
            assertThat(sim.peekBool(t.manualLast)).isEqualTo(manual == n - 1);
            assertThat(sim.peekBool(t.manualWrap)).isEqualTo(inc && manual == n - 1);
            if (en) {
                wraps += value == n - 1 ? 1 : 0;
                value = (value + 1) % n;
            }
            manual = clr ? 0 : inc ? (manual + 1) % n : manual;
            sim.step();
        }
        assertThat(wraps).isPositive();
    }

    @Test
    void namedCounterShowsUpUnderItsName() {
        Simulator sim = Simulator.of(() -> new Top(6));
        Top t = (Top) sim.circuit().top();
        sim.reset();
        sim.poke(t.inc, 1);
        sim.step(4);
        assertThat(sim.peek("top.beat")).isEqualTo(4);
        assertThat(sim.signalNames()).contains("top.beat_inc", "top.counter");
    }

    /** A counter of 2^32 values: 32 bits wide, from its last value back to 0 (the modulus is a {@code long}). */
    static final class Wide extends Module {
        final Bool en = input(Bool());
        final Bool preset = input(Bool());
        final UInt value = output(UInt(32));
        final Bool wrap = output(Bool());

        Wide() {
            Counter c = Counter.enabled(en, 1L << 32);
            when(preset, () -> c.load(0xFFFF_FFFEL));
            value.assign(c.value);
            wrap.assign(c.wrap());
        }
    }

    @Test
    void aLongModulusMakesAThirtyTwoBitCounterThatWraps() {
        Simulator sim = Simulator.of(Wide::new);
        Wide t = (Wide) sim.circuit().top();
        sim.reset();
        sim.poke(t.preset, 1);
        sim.step();
        sim.poke(t.preset, 0);
        sim.poke(t.en, 1);
        assertThat(sim.peek(t.value)).isEqualTo(0xFFFF_FFFEL);
        assertThat(sim.peekBool(t.wrap)).isFalse();
        sim.step();
        assertThat(sim.peek(t.value)).isEqualTo(0xFFFF_FFFFL);
        assertThat(sim.peekBool(t.wrap)).isTrue();
        sim.step();
        assertThat(sim.peek(t.value)).isEqualTo(0);
        assertThat(sim.peekBool(t.wrap)).isFalse();
    }

    @Test
    void rejectsEmptyRange() {
        assertThatThrownBy(() -> Simulator.of(() -> new Top(0))).hasMessageContaining("at least 1");
    }
}
