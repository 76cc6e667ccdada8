package org.flitkit.env.nrc.chip;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A short fixed-seed run of {@link NrcChipTraffic} (the million-cycle run is {@code ./hdl run nrc-chip-traffic}):
 * random table-routed traffic on all 24 ports of a whole NRC at 50 % load with bit errors on every cable.
 */
@ExtendWith(TestbenchExtension.class)
class NrcChipTrafficTest {
    @Test
    void errorFree(RunConfig cfg) {
        NrcChipTraffic.Result r = NrcChipTraffic.run(new NrcChipTraffic.Config(2_000, 0.5, 0, 4, 0.9), cfg);
        System.out.println(r.summary());
        assertThat(r.lost()).isZero();
    }

    @Test
    void everyPacketArrivesOnceIntactInOrderDespiteBitErrors(RunConfig cfg) {
        NrcChipTraffic.Result r = NrcChipTraffic.run(new NrcChipTraffic.Config(20_000, 0.5, 1e-4, 4, 0.9), cfg);
        System.out.println(r.summary());
        assertThat(r.lost()).isZero();
        assertThat(r.duplicated()).isZero();
        assertThat(r.corrupted()).isZero();
        assertThat(r.misrouted()).isZero();
        assertThat(r.outOfOrder()).isZero();
        assertThat(r.delivered()).isEqualTo(r.sent());
        assertThat(r.injectedBits()).isPositive();
        assertThat(r.crcErrors()).isPositive();
        assertThat(r.retransmitted()).isPositive();
        assertThat(r.adaptiveSplitLow()).isPositive();
        assertThat(r.adaptiveSplitHigh()).isPositive();
    }
}
