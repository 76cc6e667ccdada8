package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.SrcLoc;
import org.flitkit.hdl.UInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.flitkit.hdl.lib.SkidBuffer;

/**
 * Hdl.check and Hdl.printf in the simulator: when they act, what they report, and that idle skipping
 * keeps them. (Public: the Verilog tests run the same counter under Verilator and Icarus.)
 */
public class ChecksTest {
    /** Counts while {@code en} is high and asserts that the count never reaches {@code limit}. */
    public static final class Counter extends Module {
        final Bool en = input(Bool());
        final UInt count = output(UInt(8));
        final UInt r = regInit(UInt(8), 0);
        /** the line of the check */
        public final SrcLoc checkAt;

        Counter(int limit) {
            when(en, () -> r.assign(r.add(1)));
            count.assign(r);
            checkAt = SrcLoc.here(); check(r.ne(limit), "count reached %d", r);
        }
    }

    /** The counter as a child, so that the failure names an instance path. */
    public static final class Top extends Module {
        final Bool en = input(Bool());
        final UInt count = output(UInt(8));
        public final Counter counter;

        public Top(int limit) {
            counter = instance(new Counter(limit));
            counter.en.assign(en);
            count.assign(counter.count);
        }
    }

    private static Simulator counting(int limit, List<String> printed) {
        Simulator sim = Simulator.of(() -> new Top(limit));
        sim.setPrintSink(printed::add);
        sim.poke("top.en", 1);
        sim.reset(1);
        return sim;
    }

    @Test
    void aPassingAssertionCostsNothingVisible() {
        List<String> printed = new ArrayList<>();
        Simulator sim = counting(200, printed);
        sim.step(150);
        assertThat(sim.cycle()).isEqualTo(151);
        assertThat(sim.peek("top.count")).isEqualTo(150);
        assertThat(printed).isEmpty();
        // only designs with checks get the clock-edge call: the rest keep the generated code they had
        assertThat(sim.generatedSource()).contains("ev.fire(0); // check in top.counter at ChecksTest.java:");
        Simulator plain = Simulator.of(() -> new Module() {
            final UInt out = output(UInt(8));
            final UInt r = regInit(UInt(8), 0);

            {
                r.assign(r.add(1));
                out.assign(r);
            }
        });
        assertThat(plain.generatedSource()).doesNotContain("ev.fire").doesNotContain("events");
    }

    @Test
    void aFailingAssertionNamesTheCycleTheInstanceAndTheLine() {
        Simulator sim = counting(5, new ArrayList<>());
        SrcLoc at = ((Top) sim.circuit().top()).counter.checkAt;
        // after reset (cycle 0) the count is c - 1 in cycle c: it is 5 in cycle 6
        assertThatThrownBy(() -> sim.step(100))
                .isInstanceOfSatisfying(SimAssertionError.class, e -> {
                    assertThat(e.cycle()).isEqualTo(6);
                    assertThat(e.instance()).isEqualTo("top.counter");
                    assertThat(e.loc()).isEqualTo(at);
                    assertThat(e.detail()).isEqualTo("count reached 5");
                })
                .hasMessage("assertion failed at cycle 6 in top.counter (" + at + "): count reached 5");
        assertThat(at.toString()).startsWith("ChecksTest.java:");
        // the failing edge was not taken: the simulator stays in cycle 6 with its values
        assertThat(sim.cycle()).isEqualTo(6);
        assertThat(sim.peek("top.count")).isEqualTo(5);
    }

    @Test
    void singleStepsAndWavesReportTheSameCycle() throws Exception {
        Simulator sim = counting(5, new ArrayList<>());
        sim.startVcd(java.nio.file.Files.createTempFile("checks", ".vcd"));
        assertThatThrownBy(() -> {
            for (int i = 0; i < 100; i++) {
                sim.step();
            }
        }).isInstanceOfSatisfying(SimAssertionError.class, e -> assertThat(e.cycle()).isEqualTo(6));
        sim.stopVcd();
    }

    /** Counts from 0 and asserts that the count is never 0. */
    static final class NeverZero extends Module {
        final UInt r = regInit(UInt(4), 0);

        NeverZero() {
            r.assign(r.add(1));
            check(r.ne(0), "r is 0");
        }
    }

    /** Counts from 1 and asserts, while {@code en} is high, that the count is not 4. */
    static final class Gated extends Module {
        final Bool en = input(Bool());
        final UInt r = regInit(UInt(4), 1);

        Gated() {
            r.assign(r.add(1));
            when(en, () -> check(r.ne(4), "r is 4 while enabled"));
        }
    }

    @Test
    void noAssertionActsInReset() {
        Simulator sim = Simulator.of(NeverZero::new);
        // r is 0 throughout reset: no failure while reset is high
        sim.reset(3);
        assertThat(sim.cycle()).isEqualTo(3);
        assertThatThrownBy(sim::step).isInstanceOfSatisfying(SimAssertionError.class, e -> {
            assertThat(e.cycle()).isEqualTo(3);
            assertThat(e.detail()).isEqualTo("r is 0");
        });
    }

    @Test
    void whenConditionsGateAnAssertion() {
        Simulator sim = Simulator.of(Gated::new);
        sim.reset();
        // r is the cycle number modulo 16: it passes 4 in cycle 4 with en low, and no check fails
        sim.step(10);
        assertThat(sim.peek("gated.r")).isEqualTo(11);
        sim.poke("gated.en", 1);
        assertThatThrownBy(() -> sim.step(20)).isInstanceOfSatisfying(SimAssertionError.class, e -> {
            assertThat(e.cycle()).isEqualTo(20);
            assertThat(e.detail()).isEqualTo("r is 4 while enabled");
        });
    }

    @Test
    void printfFormatsValuesOfAnyWidth() {
        List<String> printed = new ArrayList<>();
        Simulator sim = Simulator.of(() -> new Module() {
            final UInt u = input(UInt(8));
            final SInt s = input(SInt(8));
            final UInt wide = input(UInt(100));
            final Bool b = input(Bool());

            {
                printf("u=%d x=%x b=%b s=%d sx=%x sb=%b 100%% wide=%x dec=%d bit=%d\n", u, u, u, s, s, s, wide, wide, b);
            }
        });
        sim.setPrintSink(printed::add);
        List<org.flitkit.hdl.Bits> in = sim.circuit().netlist().inputs();
        sim.poke(in.get(0), 200);
        sim.poke(in.get(1), -3);
        sim.poke(in.get(2), java.math.BigInteger.ONE.shiftLeft(99).add(java.math.BigInteger.valueOf(5)));
        sim.poke(in.get(3), 1);
        sim.step();
        assertThat(printed).containsExactly("u=200 x=c8 b=11001000 s=-3 sx=fd sb=11111101 100% wide=8000000000000000000000005"
                + " dec=633825300114114700748351602693 bit=1\n");
    }

    @Test
    void printfRunsEveryCycleUnderItsWhenAndNotInReset() {
        List<String> printed = new ArrayList<>();
        Simulator sim = Simulator.of(() -> new Module() {
            final UInt r = regInit(UInt(4), 0);

            {
                r.assign(r.add(1));
                // an expression argument: the fast evaluation must keep its value for the print
                printf("r=%d square=%d\n", r, r.mul(r));
                when(r.bit(0), () -> printf("odd\n"));
            }
        });
        sim.setPrintSink(printed::add);
        sim.reset(2);
        sim.step(5);
        assertThat(printed).containsExactly("r=0 square=0\n", "r=1 square=1\n", "odd\n", "r=2 square=4\n",
                "r=3 square=9\n", "odd\n", "r=4 square=16\n");
    }

    @Test
    void badFormatsAreElaborationErrors() {
        assertThatThrownBy(() -> Simulator.of(() -> new Module() {
            final UInt x = input(UInt(8));

            {
                printf("x=%5d\n", x);
            }
        })).isInstanceOf(HdlException.class).hasMessageContaining("printf at ChecksTest.java:")
                .hasMessageContaining("unsupported conversion '%5'");
        assertThatThrownBy(() -> Simulator.of(() -> new Module() {
            final UInt x = input(UInt(8));

            {
                check(x.ne(0), "x=%d y=%d", x);
            }
        })).hasMessageContaining("check at ChecksTest.java:").hasMessageContaining("more conversions than the 1 argument(s)");
    }

    /**
     * Two hundred stalled skid buffers (whose chunks skip themselves), a print whose condition stops
     * changing, and an assertion on a counter that changes once every 1024 cycles: a skipped chunk keeps
     * its values, and the checks read them at every edge.
     */
    static final class Idle extends Module {
        final UInt out = output(UInt(20));
        final List<SkidBuffer> stages = new ArrayList<>();
        final UInt settled = regInit(UInt(8), 0);
        final UInt tick = regInit(UInt(10), 0);
        final UInt slow = regInit(UInt(4), 0);

        Idle() {
            for (int i = 0; i < 200; i++) {
                stages.add(instance(new SkidBuffer(20)));
            }
            stages.get(0).in.valid.assign(0);
            stages.get(0).in.bits.assign(0);
            for (int i = 1; i < stages.size(); i++) {
                stages.get(i).in.connect(stages.get(i - 1).out);
            }
            SkidBuffer last = stages.get(stages.size() - 1);
            last.out.ready.assign(1);
            out.assign(last.out.bits);
            when(settled.lt(100), () -> settled.assign(settled.add(1)));
            when(settled.eq(100), () -> printf("settled\n"));
            tick.assign(tick.add(1));
            when(tick.andR(), () -> slow.assign(slow.add(1)));
            check(slow.ne(7), "slow reached 7 at tick %d", tick);
        }
    }

    @ParameterizedTest(name = "skipping={0}")
    @ValueSource(booleans = {true, false})
    void idleSkippingKeepsEveryCheckAndPrint(boolean skipping) {
        List<String> printed = new ArrayList<>();
        Simulator sim = Simulator.of(Idle::new);
        sim.setActivitySkipping(skipping);
        sim.setPrintSink(printed::add);
        sim.reset();
        sim.step(4095);
        assertThat(sim.activitySkipping()).isEqualTo(skipping);
        assertThat(sim.skippedChunks() > 0).isEqualTo(skipping);
        // slow is floor((c - 1) / 1024) in cycle c: 7 first in cycle 7169
        assertThatThrownBy(() -> sim.step(10_000)).isInstanceOfSatisfying(SimAssertionError.class, e -> {
            assertThat(e.cycle()).isEqualTo(7169);
            assertThat(e.detail()).isEqualTo("slow reached 7 at tick 0");
        });
        // settled is 100 from cycle 101 on: one print per edge, the failing one included (the print comes first)
        assertThat(printed).hasSize(7169 - 101 + 1).containsOnly("settled\n");
    }
}
