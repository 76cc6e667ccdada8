package org.flitkit.tools.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/** A design with thousands of registers splits into many JIT-sized methods and classes and still agrees cycle for cycle. */
class LargeDesignTest {
    @Test
    void thousandsOfRegistersCompileIntoJitSizedMethods() {
        Circuit c = Circuit.elaborate(() -> new RelayChain(1000, 20));
        assertThat(c.netlist().regs().size()).isGreaterThan(4000);
        Simulator sim = Simulator.of(c);
        sim.compileVariants();
        assertThat(sim.stats().classes()).isGreaterThan(2);
        assertThat(sim.stats().maxMethodBytes()).isLessThan(8000);
        Simulator single = Simulator.of(c);
        sim.reset();
        single.reset();
        sim.step(3000);
        for (int i = 0; i < 3000; i++) {
            single.step();
        }
        assertThat(sim.peek("relayChain.checksum")).isEqualTo(single.peek("relayChain.checksum")).isNotZero();
        assertThat(sim.peek("relayChain.accepted")).isGreaterThan(1000);
    }
}
