package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
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
 * The doorbell front under seeded random traffic, against a model checked every cycle: which writes are refused
 * (exactly: unknown function, or the FIFO full at the start of the cycle), every FIFO's fill and overflow count,
 * every grant is its function's oldest doorbell, a held offer does not change, and the arbiter's bound: a
 * non-empty function waits for at most the sum of the other functions' weights in grants (n - 1 in round robin).
 * docs/chpp-dma.md, "Doorbell module" and "Function arbiter".
 */
@ExtendWith(TestbenchExtension.class)
class DoorbellFrontRandomTest {
    static final int CYCLES = 20_000;

    private static void run(ChppParams p, RunConfig cfg, double writeP, double readyP) {
        int n = p.functions();
        try (Testbench<DoorbellFront> tb = Testbench.create(() -> new DoorbellFront(p), cfg)) {
            Simulator sim = tb.sim();
            DoorbellFront dut = tb.dut();
            Rng rng = tb.rng("traffic");
            Db.idle(sim, dut.write);
            sim.poke(dut.out.ready, 0);
            tb.reset(1);

            List<ArrayDeque<Db>> fifos = new ArrayList<>();
            long[] overflows = new long[n];
            long[] grantsTo = new long[n];
            // grants to other functions since function f last became non-empty or was granted
            long[] waited = new long[n];
            long bad = 0;
            long accepted = 0;
            long grants = 0;
            long maxWaitSeen = 0;
            int weightSum = p.weights().stream().mapToInt(Integer::intValue).sum();
            for (int f = 0; f < n; f++) {
                fifos.add(new ArrayDeque<>());
            }
            Db held = null;
            for (int c = 0; c < CYCLES; c++) {
                // traffic: a third of the writes go to function 0 (it overflows), 1 in 20 to a function that does not exist
                Db w = null;
                if (rng.chance(writeP)) {
                    int f = rng.chance(0.05) ? n + rng.nextInt(256 - n) : rng.chance(0.33) ? 0 : rng.nextInt(n);
                    w = Db.random(rng, f);
                    w.poke(sim, dut.write);
                } else {
                    Db.idle(sim, dut.write);
                }
                boolean ready = rng.chance(readyP);
                sim.poke(dut.out.ready, ready);

                for (int f = 0; f < n; f++) {
                    assertThat(sim.peek(dut.count.get(f))).as("cycle %d: fill of function %d", tb.cycle(), f)
                            .isEqualTo(fifos.get(f).size());
                    assertThat(sim.peek(dut.overflows.get(f))).as("overflows of function %d", f).isEqualTo(overflows[f]);
                }
                assertThat(sim.peek(dut.badFunction)).isEqualTo(bad);

                boolean expectRefused = w != null && (w.function() >= n || fifos.get(w.function()).size() == p.doorbellDepth());
                assertThat(sim.peekBool(dut.refused)).as("cycle %d: refused for %s", tb.cycle(), w).isEqualTo(expectRefused);

                boolean valid = sim.peekBool(dut.out.valid);
                boolean anyStored = fifos.stream().anyMatch(q -> !q.isEmpty());
                assertThat(valid).as("cycle %d: out.valid while doorbells are stored", tb.cycle()).isEqualTo(anyStored);
                Db g = null;
                if (valid) {
                    Db d = Db.peek(sim, dut.out.bits);
                    if (held != null) {
                        assertThat(d).as("cycle %d: held offer", tb.cycle()).isEqualTo(held);
                    }
                    assertThat(fifos.get(d.function()).peek()).as("cycle %d: offer is its FIFO's head", tb.cycle()).isEqualTo(d);
                    if (ready) {
                        g = d;
                    }
                    held = ready ? null : d;
                }

                // next state
                if (g != null) {
                    fifos.get(g.function()).poll();
                    grants++;
                    grantsTo[g.function()]++;
                    for (int f = 0; f < n; f++) {
                        if (f != g.function() && !fifos.get(f).isEmpty()) {
                            waited[f]++;
                            maxWaitSeen = Math.max(maxWaitSeen, waited[f]);
                            assertThat(waited[f]).as("cycle %d: function %d waited", tb.cycle(), f)
                                    .isLessThanOrEqualTo(weightSum - p.weights().get(f));
                        }
                    }
                    waited[g.function()] = 0;
                }
                if (w != null) {
                    if (w.function() >= n) {
                        bad++;
                    } else if (expectRefused) {
                        overflows[w.function()]++;
                    } else {
                        if (fifos.get(w.function()).isEmpty() && (g == null || g.function() != w.function())) {
                            waited[w.function()] = 0;
                        }
                        fifos.get(w.function()).add(w);
                        accepted++;
                    }
                }
                tb.run(1);
            }
            System.out.printf("doorbell front random run (%s, seed %d): %d cycles, %d doorbells accepted, %d granted %s,"
                    + " %d refused for a full FIFO, %d for an unknown function, longest wait %d grants%n",
                    p.arbitration(), cfg.seed(), CYCLES, accepted, grants, java.util.Arrays.toString(grantsTo),
                    java.util.Arrays.stream(overflows).sum(), bad, maxWaitSeen);
            assertThat(overflows[0]).as("function 0 overflowed").isPositive();
            assertThat(bad).isPositive();
            assertThat(grants).isGreaterThan(CYCLES / 2);
        }
    }

    @Test
    void roundRobinUnderRandomTraffic(RunConfig cfg) {
        run(ChppParams.paper(), cfg, 0.8, 0.7);
    }

    @Test
    void weightedUnderRandomTraffic(RunConfig cfg) {
        run(ChppParams.paper().weighted(FunctionArbiterTest.WEIGHTS), cfg, 0.8, 0.7);
    }
}
