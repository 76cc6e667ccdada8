package org.flitkit.env.mnc;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.rtl.mnc.MncParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.junit.jupiter.api.Test;

class MncRandomScenarioTest {
    @Test
    void everyMessageDeliveredOnceInOrderByteExact() {
        ScenarioResult r = MncRandomScenario.run(RunConfig.of(7, MncRandomScenario.CYCLE_BUDGET),
                new MncRandomScenario.Options(300, 3, 2, 3, 8 * 1024, MncParams.Policy.DYNAMIC));
        System.out.println(r.counts() + " cycles=" + r.cycles() + " cps=" + r.cyclesPerSecond());
        assertThat(r.counts().get("delivered")).isEqualTo(300L);
    }
}
