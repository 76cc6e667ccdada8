package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The function arbiter behind the real doorbell FIFOs ({@link DoorbellFront}): exact round-robin rotation with all
 * 8 functions backlogged, exact weighted ratios, idle functions skipped without a lost cycle, a held grant under
 * backpressure, per-function order kept. docs/chpp-dma.md, "Function arbiter".
 */
@ExtendWith(TestbenchExtension.class)
class FunctionArbiterTest {
    static final List<Integer> WEIGHTS = List.of(4, 1, 1, 2, 1, 1, 3, 1);

    /** The front, its FIFOs and what left it: the grants with their cycles; a copy of every FIFO to check order. */
    static final class Front implements AutoCloseable {
        final Testbench<DoorbellFront> tb;
        final Simulator sim;
        final Rng rng;
        final List<ArrayDeque<Db>> fifos = new ArrayList<>();
        final List<Db> grants = new ArrayList<>();
        final List<Long> grantCycles = new ArrayList<>();

        Front(ChppParams p, RunConfig cfg) {
            tb = Testbench.create(() -> new DoorbellFront(p), cfg);
            sim = tb.sim();
            rng = tb.rng("doorbells");
            for (int f = 0; f < p.functions(); f++) {
                fifos.add(new ArrayDeque<>());
            }
            Db.idle(sim, tb.dut().write);
            sim.poke(tb.dut().out.ready, 0);
            tb.reset(1);
        }

        /** Writes one random doorbell for f (out.ready low), which must be accepted. */
        void fill(int f, int n) {
            for (int i = 0; i < n; i++) {
                Db d = Db.random(rng, f);
                d.poke(sim, tb.dut().write);
                assertThat(sim.peekBool(tb.dut().refused)).isFalse();
                fifos.get(f).add(d);
                tb.run(1);
            }
            Db.idle(sim, tb.dut().write);
        }

        /**
         * Runs {@code cycles} cycles with out.ready high with probability {@code readyP}; records every grant,
         * checks it is the head of its function's FIFO and that a refused beat holds until taken.
         */
        void drain(long cycles, double readyP) {
            Db held = null;
            for (long c = 0; c < cycles; c++) {
                boolean ready = readyP >= 1 || rng.chance(readyP);
                sim.poke(tb.dut().out.ready, ready);
                boolean valid = sim.peekBool(tb.dut().out.valid);
                if (held != null) {
                    assertThat(valid).as("out.valid dropped before the beat was taken, cycle %d", tb.cycle()).isTrue();
                    assertThat(Db.peek(sim, tb.dut().out.bits)).as("out.bits changed before taken, cycle %d", tb.cycle())
                            .isEqualTo(held);
                }
                if (valid) {
                    Db d = Db.peek(sim, tb.dut().out.bits);
                    if (ready) {
                        assertThat(fifos.get(d.function()).poll()).as("grant %d is its FIFO's head", grants.size()).isEqualTo(d);
                        grants.add(d);
                        grantCycles.add(tb.cycle());
                        held = null;
                    } else {
                        held = d;
                    }
                }
                tb.run(1);
            }
            sim.poke(tb.dut().out.ready, 0);
        }

        List<Integer> functions() {
            return grants.stream().map(Db::function).toList();
        }

        Map<Integer, Long> perFunction(int from, int to) {
            Map<Integer, Long> m = new TreeMap<>();
            for (Db d : grants.subList(from, to)) {
                m.merge(d.function(), 1L, Long::sum);
            }
            return m;
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    @Test
    void allEightBackloggedFunctionsAreGrantedInStrictRotationOnePerCycle(RunConfig cfg) {
        try (Front fr = new Front(ChppParams.paper(), cfg)) {
            for (int f = 0; f < 8; f++) {
                fr.fill(f, 32);
            }
            fr.drain(256, 1.0);
            assertThat(fr.grants).hasSize(256);
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < 256; i++) {
                expected.add(i % 8);
            }
            assertThat(fr.functions()).containsExactlyElementsOf(expected);
            // one grant per cycle: 256 grants in 256 consecutive cycles
            assertThat(fr.grantCycles.get(255) - fr.grantCycles.get(0)).isEqualTo(255);
            assertThat(fr.perFunction(0, 256).values()).containsOnly(32L);
            assertThat(fr.sim.peek(fr.tb.dut().nonEmpty)).isZero();
        }
    }

    @Test
    void rotationAndOrderHoldUnderRandomBackpressure(RunConfig cfg) {
        try (Front fr = new Front(ChppParams.paper(), cfg)) {
            for (int f = 0; f < 8; f++) {
                fr.fill(f, 32);
            }
            fr.drain(2_000, 0.4);
            assertThat(fr.grants).hasSize(256);
            for (int i = 0; i < 256; i++) {
                assertThat(fr.grants.get(i).function()).as("grant %d", i).isEqualTo(i % 8);
            }
        }
    }

    @Test
    void weightedModeGivesEachFunctionItsWeightPerRound(RunConfig cfg) {
        try (Front fr = new Front(ChppParams.paper().weighted(WEIGHTS), cfg)) {
            for (int f = 0; f < 8; f++) {
                fr.fill(f, 32);
            }
            // function 0 (weight 4) empties after 8 rounds of 14 grants
            fr.drain(112, 1.0);
            assertThat(fr.grants).hasSize(112);
            List<Integer> round = List.of(0, 0, 0, 0, 1, 2, 3, 3, 4, 5, 6, 6, 6, 7);
            for (int r = 0; r < 8; r++) {
                assertThat(fr.functions().subList(14 * r, 14 * r + 14)).as("round %d", r).containsExactlyElementsOf(round);
            }
            Map<Integer, Long> counts = fr.perFunction(0, 112);
            for (int f = 0; f < 8; f++) {
                assertThat(counts.get(f)).as("function %d", f).isEqualTo(8L * WEIGHTS.get(f));
            }
            assertThat(fr.grantCycles.get(111) - fr.grantCycles.get(0)).isEqualTo(111);
        }
    }

    /** A function that runs dry forfeits the rest of its weight: the next non-empty one is served in that cycle. */
    @Test
    void weightedModeSkipsAFunctionThatRunsDryWithoutALostCycle(RunConfig cfg) {
        try (Front fr = new Front(ChppParams.paper().weighted(WEIGHTS), cfg)) {
            fr.fill(0, 2); // weight 4, only 2 doorbells
            fr.fill(6, 5); // weight 3
            fr.drain(7, 1.0);
            assertThat(fr.functions()).containsExactly(0, 0, 6, 6, 6, 6, 6);
            assertThat(fr.grantCycles.get(6) - fr.grantCycles.get(0)).isEqualTo(6);
        }
    }

    @Test
    void idleFunctionsAreSkippedWithoutLostCycles(RunConfig cfg) {
        try (Front fr = new Front(ChppParams.paper(), cfg)) {
            fr.fill(2, 5);
            fr.fill(6, 5);
            fr.drain(10, 1.0);
            assertThat(fr.functions()).containsExactly(2, 6, 2, 6, 2, 6, 2, 6, 2, 6);
            assertThat(fr.grantCycles.get(9) - fr.grantCycles.get(0)).isEqualTo(9);
            // with the output ready, a doorbell written in cycle c is granted in cycle c + 1, whatever function
            // wrote last: a stream of doorbells for functions 7, 1, 4, 4, 0 leaves one per cycle, one cycle behind
            fr.sim.poke(fr.tb.dut().out.ready, 1);
            int[] order = {7, 1, 4, 4, 0};
            List<Long> written = new ArrayList<>();
            for (int i = 0; i <= order.length; i++) {
                if (i < order.length) {
                    Db d = Db.random(fr.rng, order[i]);
                    fr.fifos.get(order[i]).add(d);
                    d.poke(fr.sim, fr.tb.dut().write);
                    written.add(fr.tb.cycle());
                } else {
                    Db.idle(fr.sim, fr.tb.dut().write);
                }
                if (fr.sim.peekBool(fr.tb.dut().out.valid)) {
                    Db g = Db.peek(fr.sim, fr.tb.dut().out.bits);
                    assertThat(fr.fifos.get(g.function()).poll()).isEqualTo(g);
                    fr.grants.add(g);
                    fr.grantCycles.add(fr.tb.cycle());
                }
                fr.tb.run(1);
            }
            assertThat(fr.functions().subList(10, 15)).containsExactly(7, 1, 4, 4, 0);
            for (int i = 0; i < order.length; i++) {
                assertThat(fr.grantCycles.get(10 + i)).as("grant of doorbell %d", i).isEqualTo(written.get(i) + 1);
            }
        }
    }
}
