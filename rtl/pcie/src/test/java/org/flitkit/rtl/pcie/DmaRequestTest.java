package org.flitkit.rtl.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link DmaRequest}: its fields and widths at each beat size, and random beats through a stream (docs/host-pcie.md). */
@ExtendWith(TestbenchExtension.class)
class DmaRequestTest {
    @Test
    void fieldsInOrderWithTheirWidths() {
        assertThat(BundleLoop.widths(new DmaRequest()))
                .containsExactly(entry("write", 1), entry("tag", 8), entry("addr", 64), entry("len", 13), entry("data", 512), entry("last", 1));
        assertThat(BundleLoop.widths(new DmaRequest(16)).keySet()).containsExactly("write", "tag", "addr", "len", "data", "last");
        assertThat(BundleLoop.widths(new DmaRequest(16))).containsEntry("data", 128);
        assertThat(BundleLoop.widths(new DmaRequest(32))).containsEntry("data", 256);
        assertThat(new DmaRequest().beatBytes()).isEqualTo(64);
        assertThat(new DmaRequest(32).beatBytes()).isEqualTo(32);
        assertThat(new DmaRequest(16).width()).isEqualTo(1 + 8 + 64 + 13 + 128 + 1);
    }

    @Test
    void otherBeatSizesAreRefused() {
        assertThatThrownBy(() -> new DmaRequest(8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PCIe data beat must be 16, 32 or 64 bytes (a 128-, 256- or 512-bit bus), got 8");
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 32, 64})
    void randomRequestsCrossAStreamFieldByField(int beatBytes, RunConfig cfg) {
        BundleLoop.run(cfg.part("b" + beatBytes), () -> new DmaRequest(beatBytes), 300);
    }
}
