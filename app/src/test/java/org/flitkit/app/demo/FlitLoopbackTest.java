package org.flitkit.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestbenchExtension.class)
class FlitLoopbackTest {
    @Test
    void everyFlitArrivesOnceInOrderUnchanged(RunConfig cfg) {
        ScenarioResult r = FlitLoopbackScenario.run(cfg.withCycles(5_000));
        // ten 20-bit beats per flit: at most one flit per 10 cycles, less under gaps and backpressure
        assertThat(r.counts().get("flits")).isBetween(5_000L / 20, 5_000L / 10);
        assertThat(r.cycles()).isGreaterThan(5_000);
    }

    @Test
    void aRunIsReproducibleFromItsSeed(RunConfig cfg) {
        ScenarioResult a = FlitLoopbackScenario.run(cfg.withCycles(2_000));
        ScenarioResult b = FlitLoopbackScenario.run(cfg.withCycles(2_000));
        assertThat(b.cycles()).isEqualTo(a.cycles());
        assertThat(b.counts()).isEqualTo(a.counts());
    }

    @Test
    void hierarchyHasThreeLevels() {
        List<String> paths = Circuit.elaborate(FlitLoopback::new).modules().stream().map(Module::path).toList();
        assertThat(paths).containsExactly("flitLoopback", "flitLoopback.link", "flitLoopback.link.ser",
                "flitLoopback.link.fifo", "flitLoopback.link.deser");
    }
}
