package org.flitkit.rtl.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link MmioWrite}: one 64-bit register at a 24-bit BAR address, and random writes through a stream (docs/host-pcie.md). */
@ExtendWith(TestbenchExtension.class)
class MmioWriteTest {
    @Test
    void aBarAddressAndOneRegister() {
        assertThat(BundleLoop.widths(new MmioWrite())).containsExactly(entry("addr", 24), entry("data", 64));
        assertThat(BundleLoop.widths(new MmioWrite()).keySet()).containsExactly("addr", "data");
    }

    @Test
    void randomWritesCrossAStreamFieldByField(RunConfig cfg) {
        BundleLoop.run(cfg, MmioWrite::new, 300);
    }
}
