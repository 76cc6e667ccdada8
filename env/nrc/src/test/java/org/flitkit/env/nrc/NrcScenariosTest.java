package org.flitkit.env.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The integrated NRC testbenches, each with its seed (rerun with -Dflitkit.seed, waves with -Dflitkit.vcd). */
@ExtendWith(TestbenchExtension.class)
class NrcScenariosTest {
    @Test
    void registerAccessFromEveryPort(RunConfig cfg) {
        ScenarioResult r = NrcPortsScenario.run(cfg);
        assertThat(r.counts().get("answers")).isEqualTo(24 * 5);
    }

    @Test
    void eepromReadsAndWritesOfOneToSixBytes(RunConfig cfg) {
        ScenarioResult r = NrcEepromScenario.run(cfg);
        assertThat(r.counts().get("answers")).isEqualTo(2 * 6 + 2 * 3);
    }

    @Test
    void everyErrorPath(RunConfig cfg) {
        ScenarioResult r = NrcErrorsScenario.run(cfg);
        assertThat(r.counts().get("answers")).isEqualTo(17);
    }

    @Test
    void faultReportsEnabledMaskedAndBehindResponses(RunConfig cfg) {
        ScenarioResult r = NrcFaultsScenario.run(cfg);
        assertThat(r.counts().get("reports")).isEqualTo(3);
        assertThat(r.counts().get("contended_cycles")).isPositive();
    }

    @Test
    void bootFromAnEepromImage(RunConfig cfg) {
        ScenarioResult r = NrcBootScenario.run(cfg);
        assertThat(r.counts().get("answers")).isEqualTo(3);
    }

    @Test
    void manyPortsAtOnceWithRandomTiming(RunConfig cfg) {
        ScenarioResult r = NrcRandomScenario.run(cfg.withCycles(6_000));
        // the NMA side moves one 40-beat packet per 40 cycles each way: about 150 requests in 6000 cycles
        assertThat(r.counts().get("requests")).isGreaterThan(120);
        assertThat(r.counts().get("answers")).isEqualTo(r.counts().get("requests"));
    }

    @Test
    void randomRunWritesItsWaveform(RunConfig cfg) throws Exception {
        Path dir = Path.of("target", "waves");
        Files.createDirectories(dir);
        Path vcd = dir.resolve("nrc-random.vcd");
        NrcRandomScenario.run(cfg.withCycles(500).withVcd(vcd));
        assertThat(Files.size(vcd)).isGreaterThan(10_000);
        assertThat(Files.exists(dir.resolve("nrc-random.gtkw"))).isTrue();
    }
}
