package org.flitkit.testbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenarioOptionsTest {
    private static final Map<String, String> OPTIONS = Map.of("loss", "drop probability");

    @Test
    void knownOptionsAndNumbersAreReadAndTheRestRefusedByName() {
        ScenarioOptions.requireKnown("x", Map.of("loss", "0.2"), OPTIONS);
        assertThatThrownBy(() -> ScenarioOptions.requireKnown("x", Map.of("los", "0.2"), OPTIONS))
                .hasMessage("unknown option --los; x takes --loss");
        assertThat(ScenarioOptions.number(Map.of("loss", "0.25"), "loss", 0.1)).isEqualTo(0.25);
        assertThat(ScenarioOptions.number(Map.of(), "loss", 0.1)).isEqualTo(0.1);
        assertThatThrownBy(() -> ScenarioOptions.number(Map.of("loss", "x"), "loss", 0.1)).hasMessage("--loss needs a number, got 'x'");
        assertThat(ScenarioOptions.integer(Map.of("n", "100_000"), "n", 1)).isEqualTo(100_000L);
        assertThatThrownBy(() -> ScenarioOptions.integer(Map.of("n", "1.5"), "n", 1)).hasMessage("--n needs an integer, got '1.5'");
        assertThat(ScenarioOptions.smallInteger(Map.of("n", "7"), "n", 1)).isEqualTo(7);
        assertThatThrownBy(() -> ScenarioOptions.smallInteger(Map.of("n", "3000000000"), "n", 1))
                .hasMessage("--n is out of range, got '3000000000'");
    }
}
