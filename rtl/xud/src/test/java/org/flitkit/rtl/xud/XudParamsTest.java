package org.flitkit.rtl.xud;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class XudParamsTest {
    @Test
    void aQpCountThatIsNoPowerOfTwoIsRejected() {
        assertThatThrownBy(() -> new XudParams(3, 64, 100, 8, 8, 8, 0, 0)).hasMessage("qps must be a power of two in 2..256, got 3");
    }
}
