package org.flitkit.env.xud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import org.junit.jupiter.api.Test;

/** The window layer's memory per connection as JOL measures it (64-bit HotSpot, compressed references). */
class XudMemoryTest {
    @Test
    void eachWindowCostsSixteenBytesOnTopOfAFixedPerConnectionPart() {
        double w1 = XudMemory.bytesPerConnection(1, 1_000);
        double w32 = XudMemory.bytesPerConnection(32, 1_000);
        double w64 = XudMemory.bytesPerConnection(64, 1_000);
        // per window: next_msn, the in-flight message reference, the free-window stack entry, expected_msn: 4 x 4 bytes
        assertThat(w64 - w32).isCloseTo(32 * 16.0, offset(1e-9));
        assertThat(w32).isEqualTo(744_256 / 1_000.0);
        assertThat(w1).isEqualTo(264_256 / 1_000.0);
        assertThat(w32 / XudMemory.RC_QP_BYTES).isLessThan(0.12);
        assertThatThrownBy(() -> XudMemory.bytesPerConnection(32, 0)).hasMessage("measure at least one connection, got 0");
    }
}
