package org.flitkit.env.nrc.chip;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A short fixed-seed run of {@link NrcChipTrafficScenario} (the million-cycle run is {@code ./hdl run nrc-chip-traffic}):
 * random table-routed traffic on all 24 ports of a whole NRC at 50 % load with bit errors on every cable.
 */
@ExtendWith(TestbenchExtension.class)
class NrcChipTrafficScenarioTest {
    @Test
    void everyPacketArrivesOnceIntactInOrderDespiteBitErrors(RunConfig cfg) {
        ScenarioResult r = NrcChipTrafficScenario.run(NrcChipTrafficScenario.config(5_000, Map.of()), cfg);
        Map<String, Long> c = r.counts();
        System.out.println(c);
        assertThat(c.get("delivered")).isEqualTo(c.get("sent")).isPositive();
        assertThat(c.get("lost")).isZero();
        assertThat(c.get("duplicated")).isZero();
        assertThat(c.get("corrupted")).isZero();
        assertThat(c.get("misrouted")).isZero();
        assertThat(c.get("out_of_order")).isZero();
        assertThat(c.get("injected_bit_errors")).isPositive();
        assertThat(c.get("crc_errors")).isPositive();
        assertThat(c.get("retransmitted")).isPositive();
        assertThat(c.get("adaptive_low")).isPositive();
        assertThat(c.get("adaptive_high")).isPositive();
    }
}
