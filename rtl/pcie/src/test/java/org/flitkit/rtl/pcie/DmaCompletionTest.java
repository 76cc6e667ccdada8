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

/** {@link DmaCompletion}: its fields and widths at each beat size, and random beats through a stream (docs/host-pcie.md). */
@ExtendWith(TestbenchExtension.class)
class DmaCompletionTest {
    @Test
    void fieldsInOrderWithTheirWidths() {
        assertThat(BundleLoop.widths(new DmaCompletion()))
                .containsExactly(entry("tag", 8), entry("data", 512), entry("bytes", 7), entry("status", 3), entry("last", 1));
        assertThat(BundleLoop.widths(new DmaCompletion(16)).keySet()).containsExactly("tag", "data", "bytes", "status", "last");
        // bytes holds 0..B: 5 bits at 16, 6 at 32
        assertThat(BundleLoop.widths(new DmaCompletion(16))).containsEntry("data", 128).containsEntry("bytes", 5);
        assertThat(BundleLoop.widths(new DmaCompletion(32))).containsEntry("data", 256).containsEntry("bytes", 6);
        assertThat(new DmaCompletion().beatBytes()).isEqualTo(64);
        assertThat(new DmaCompletion(16).beatBytes()).isEqualTo(16);
    }

    @Test
    void otherBeatSizesAreRefused() {
        assertThatThrownBy(() -> new DmaCompletion(128)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PCIe data beat must be 16, 32 or 64 bytes (a 128-, 256- or 512-bit bus), got 128");
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 32, 64})
    void randomCompletionsCrossAStreamFieldByField(int beatBytes, RunConfig cfg) {
        BundleLoop.run(cfg.part("b" + beatBytes), () -> new DmaCompletion(beatBytes), 300);
    }
}
