package org.flitkit.env.xud;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.junit.jupiter.api.Test;

class XudLossyScenarioTest {
    @Test
    void everyMessageDeliveredExactlyOnceOverALossyNetwork() {
        XudLossyScenario.Options o = new XudLossyScenario.Options(new Faults(0.1, 0.1, 0.05, 0.05, 0.01), 3_000, 32, 4);
        ScenarioResult r = XudLossyScenario.run(RunConfig.of(1, 2_000_000), o);
        System.out.println(r.counts() + " cycles=" + r.cycles() + " sim=" + r.simSeconds() + " build=" + r.buildSeconds());
        assertThat(r.counts()).containsEntry("delivered", 3_000L).containsEntry("lost", 0L).containsEntry("duplicated", 0L);
    }
}
