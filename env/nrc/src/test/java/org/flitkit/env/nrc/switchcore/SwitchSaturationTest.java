package org.flitkit.env.nrc.switchcore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.junit.jupiter.api.Test;

/** The RTL core in its one-FIFO mode saturates where the ideal HOL model says (24 ports, uniform, one-flit packets). */
class SwitchSaturationTest {
    @Test
    void oneFifoPerInputSaturatesAtTheHolLimit() {
        SwitchParams p = SwitchParams.fifo(24, 4, 6, 8, 1);
        Simulator compiled = Simulator.of(() -> new SwitchCore(p));
        SwitchLoad.Point pt = SwitchLoad.run(compiled, p, SwitchLoad.Pattern.UNIFORM, 1, 1.0, 300, 2000, 1);
        double model = HolModel.saturation(24, 50_000, 1);
        System.out.printf("RTL %.4f flits/cycle/port, HOL model %.4f, %.0f cycles/s%n", pt.accepted(), model,
                pt.cyclesPerSecond());
        assertThat(pt.accepted()).isCloseTo(model, within(0.03 * model));
    }
}
