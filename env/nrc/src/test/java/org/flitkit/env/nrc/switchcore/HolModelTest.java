package org.flitkit.env.nrc.switchcore;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The software HOL model against the values known in closed form or from the literature. */
class HolModelTest {
    @Test
    void twoInputsSaturateAtThreeQuarters() {
        // N = 2: both heads collide with probability 1/2, so 1.5 cells per slot for 2 outputs
        assertThat(HolModel.saturation(2, 200_000, 1)).isCloseTo(0.75, within(0.005));
    }

    @Test
    void largeSwitchesApproachTwoMinusRootTwo() {
        double n16 = HolModel.saturation(16, 40_000, 2);
        double n128 = HolModel.saturation(128, 10_000, 3);
        assertThat(n16).isCloseTo(0.600, within(0.006));
        assertThat(n128).isCloseTo(2 - Math.sqrt(2), within(0.006)).isLessThan(n16);
    }
}
