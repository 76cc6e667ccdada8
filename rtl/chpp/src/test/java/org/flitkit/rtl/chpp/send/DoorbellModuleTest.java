package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The doorbell module with the paper's 8 functions x 32 doorbells: what a full FIFO and an unknown function do to a
 * write (refused, counted, nothing stored or lost), and that the FIFOs keep order. docs/chpp-dma.md, "Doorbell module".
 */
@ExtendWith(TestbenchExtension.class)
class DoorbellModuleTest {
    static final ChppParams P = ChppParams.paper();

    private static Testbench<DoorbellModule> bench(RunConfig cfg) {
        Testbench<DoorbellModule> tb = Testbench.create(() -> new DoorbellModule(P), cfg);
        Simulator sim = tb.sim();
        Db.idle(sim, tb.dut().write);
        for (int f = 0; f < P.functions(); f++) {
            sim.poke(tb.dut().heads.get(f).ready, 0);
        }
        tb.reset(1);
        return tb;
    }

    /** Writes {@code d} for one cycle and returns whether it was refused. */
    private static boolean write(Testbench<DoorbellModule> tb, Db d) {
        d.poke(tb.sim(), tb.dut().write);
        boolean refused = tb.sim().peekBool(tb.dut().refused);
        tb.run(1);
        Db.idle(tb.sim(), tb.dut().write);
        return refused;
    }

    private static List<Long> overflows(Testbench<DoorbellModule> tb) {
        List<Long> l = new ArrayList<>();
        for (int f = 0; f < P.functions(); f++) {
            l.add(tb.sim().peek(tb.dut().overflows.get(f)));
        }
        return l;
    }

    /** Drains function f's FIFO, one doorbell per cycle, checking that one is offered every cycle until empty. */
    private static List<Db> drain(Testbench<DoorbellModule> tb, int f) {
        Simulator sim = tb.sim();
        List<Db> out = new ArrayList<>();
        sim.poke(tb.dut().heads.get(f).ready, 1);
        while (sim.peekBool(tb.dut().heads.get(f).valid)) {
            out.add(Db.peek(sim, f, tb.dut().heads.get(f).bits));
            tb.run(1);
        }
        sim.poke(tb.dut().heads.get(f).ready, 0);
        return out;
    }

    @Test
    void the33rdDoorbellOfAFunctionIsRefusedCountedAndTheFifoKeepsItsOrder(RunConfig cfg) {
        try (Testbench<DoorbellModule> tb = bench(cfg)) {
            Rng rng = tb.rng("doorbells");
            List<Db> f3 = new ArrayList<>();
            List<Db> f5 = new ArrayList<>();
            // function 3 gets 32 doorbells interleaved with 10 for function 5: all accepted
            for (int i = 0; i < 32; i++) {
                Db d = Db.random(rng, 3);
                f3.add(d);
                assertThat(write(tb, d)).as("doorbell %d of function 3 refused", i).isFalse();
                if (i % 3 == 0 && f5.size() < 10) {
                    Db e = Db.random(rng, 5);
                    f5.add(e);
                    assertThat(write(tb, e)).isFalse();
                }
            }
            assertThat(tb.sim().peek(tb.dut().count.get(3))).isEqualTo(32);
            assertThat(tb.sim().peek(tb.dut().count.get(5))).isEqualTo(f5.size());
            assertThat(tb.sim().peek(tb.dut().nonEmpty)).isEqualTo((1L << 3) | (1L << 5));
            assertThat(overflows(tb)).containsOnly(0L);

            // the 33rd, 34th and 35th are refused and counted for function 3 only; function 5 still takes doorbells
            for (int i = 0; i < 3; i++) {
                assertThat(write(tb, Db.random(rng, 3))).as("doorbell %d of a full FIFO", 33 + i).isTrue();
            }
            Db late5 = Db.random(rng, 5);
            f5.add(late5);
            assertThat(write(tb, late5)).isFalse();
            assertThat(overflows(tb)).containsExactly(0L, 0L, 0L, 3L, 0L, 0L, 0L, 0L);
            assertThat(tb.sim().peek(tb.dut().badFunction)).isZero();
            assertThat(tb.sim().peek(tb.dut().count.get(3))).isEqualTo(32);

            // nothing lost, nothing overwritten: both FIFOs give back exactly what they took, in order
            assertThat(drain(tb, 3)).containsExactlyElementsOf(f3);
            assertThat(drain(tb, 5)).containsExactlyElementsOf(f5);
            assertThat(tb.sim().peek(tb.dut().nonEmpty)).isZero();
            // a freed FIFO takes doorbells again; the counter keeps its history
            assertThat(write(tb, Db.random(rng, 3))).isFalse();
            assertThat(overflows(tb)).containsExactly(0L, 0L, 0L, 3L, 0L, 0L, 0L, 0L);
        }
    }

    @Test
    void aDoorbellForAFunctionThatDoesNotExistIsRefusedAndCounted(RunConfig cfg) {
        try (Testbench<DoorbellModule> tb = bench(cfg)) {
            Rng rng = tb.rng("doorbells");
            int[] bad = {8, 9, 127, 255};
            for (int f : bad) {
                assertThat(write(tb, Db.random(rng, f))).as("function %d", f).isTrue();
            }
            Db ok = Db.random(rng, 7);
            assertThat(write(tb, ok)).isFalse();
            assertThat(tb.sim().peek(tb.dut().badFunction)).isEqualTo(bad.length);
            assertThat(overflows(tb)).containsOnly(0L);
            assertThat(tb.sim().peek(tb.dut().nonEmpty)).isEqualTo(1L << 7);
            for (int f = 0; f < 7; f++) {
                assertThat(tb.sim().peek(tb.dut().count.get(f))).as("function %d", f).isZero();
            }
            assertThat(drain(tb, 7)).containsExactly(ok);
        }
    }

    /**
     * Full means 32 stored at the start of the cycle: a write to a full FIFO is refused even in the cycle the
     * arbiter takes its head (the FIFO is not a pipe), and the dequeue still happens.
     */
    @Test
    void aWriteToAFullFifoIsRefusedEvenWhileItsHeadLeaves(RunConfig cfg) {
        try (Testbench<DoorbellModule> tb = bench(cfg)) {
            Rng rng = tb.rng("doorbells");
            List<Db> f0 = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                Db d = Db.random(rng, 0);
                f0.add(d);
                write(tb, d);
            }
            tb.sim().poke(tb.dut().heads.get(0).ready, 1);
            assertThat(Db.peek(tb.sim(), 0, tb.dut().heads.get(0).bits)).isEqualTo(f0.get(0));
            assertThat(write(tb, Db.random(rng, 0))).isTrue();
            tb.sim().poke(tb.dut().heads.get(0).ready, 0);
            assertThat(tb.sim().peek(tb.dut().count.get(0))).isEqualTo(31);
            assertThat(tb.sim().peek(tb.dut().overflows.get(0))).isEqualTo(1);
            Db next = Db.random(rng, 0);
            assertThat(write(tb, next)).isFalse();
            List<Db> expected = new ArrayList<>(f0.subList(1, 32));
            expected.add(next);
            assertThat(drain(tb, 0)).containsExactlyElementsOf(expected);
        }
    }
}
