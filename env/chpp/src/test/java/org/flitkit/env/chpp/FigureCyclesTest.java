package org.flitkit.env.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.flitkit.testbench.CycleTally;
import org.flitkit.testbench.RunConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cycles the chpp-figures scenario reports: every session's runs and waits and every crossbar load, summed
 * over the threads of the pool and passed on to the command's own listener.
 */
class FigureCyclesTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        pool.shutdown();
    }

    @Test
    void twoCrossbarLoadsOnTwoThreadsCountTheirWarmUpAndWindowEach() {
        CycleTally command = new CycleTally();
        CycleTally tally = new CycleTally(command);
        new ChppXbarFigures(tally).measure(Set.of("chpp-xbar-4x2", "chpp-xbar-4x4"), pool);
        assertThat(XbarLoad.WARMUP + XbarLoad.WINDOW).isEqualTo(42_000);
        assertThat(tally.total()).isEqualTo(2 * 42_000);
        assertThat(command.total()).isEqualTo(2 * 42_000);
    }

    @Test
    void theLatencySessionCountsEveryCycleAfterItsReset() {
        AtomicLong first = new AtomicLong(-1);
        AtomicLong last = new AtomicLong();
        CycleTally tally = new CycleTally((what, cycle, start, end) -> {
            first.compareAndSet(-1, start);
            last.accumulateAndGet(cycle, Math::max);
        });
        new ChppFigures(RunConfig.DEFAULT_SEED, tally).measure(Set.of("chpp-proc-nap"), pool);
        // one testbench, one reset cycle, then only runs and waits: its set-up's 500 cycles and table 2's 20 operations
        assertThat(first.get()).isEqualTo(1);
        assertThat(tally.total()).isEqualTo(last.get() - 1).isEqualTo(11_314);
    }
}
