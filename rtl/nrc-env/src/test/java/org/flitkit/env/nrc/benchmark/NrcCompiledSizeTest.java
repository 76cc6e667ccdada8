package org.flitkit.env.nrc.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/**
 * The chip's generated simulator stays JIT-compilable: HotSpot never compiles a method over 8,000 bytes
 * of bytecode (it would run interpreted, several times slower), which the register file's read mux with an
 * activity check over 209 inputs once exceeded.
 */
class NrcCompiledSizeTest {
    @Test
    void everyGeneratedMethodOfTheBusyChipIsUnderTheJitLimit() {
        Simulator sim = Simulator.of(NrcTraffic::new);
        assertThat(sim.stats().maxMethodBytes()).isLessThan(8000);
    }
}
