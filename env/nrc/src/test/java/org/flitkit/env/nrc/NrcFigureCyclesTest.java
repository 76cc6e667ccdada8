package org.flitkit.env.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.flitkit.testbench.CycleTally;
import org.flitkit.testbench.RunConfig;
import org.flitkit.figures.Table;
import org.junit.jupiter.api.Test;

/** The cycles nrc-figures reports for its E2PROM sweep: every point's runs and waits (here 1 and 2
 * addresses), the points on two threads. */
class NrcFigureCyclesTest {
    @Test
    void theEepromSweepCountsEveryPointsRunsAndWaits() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CycleTally tally = new CycleTally();
        Table t;
        try {
            t = NrcFigures.eepromSweep(RunConfig.DEFAULT_SEED, pool, tally, 2);
        } finally {
            pool.shutdown();
        }
        long latencies = t.rows().stream().mapToLong(r -> (long) (r[1] + r[2])).sum();
        // the writes' and reads' latencies, and the same 25,681 cycles around them at each point
        assertThat(latencies).isEqualTo(970_716);
        assertThat(tally.total()).isEqualTo(1_022_078).isEqualTo(latencies + 2 * 25_681);
    }
}
