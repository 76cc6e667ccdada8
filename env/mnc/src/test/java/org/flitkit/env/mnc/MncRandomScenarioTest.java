package org.flitkit.env.mnc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.flitkit.rtl.mnc.MncParams.Policy;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** {@code mnc-random} at CI size: every message once, in order per flow, byte exact, for several shapes and policies. */
class MncRandomScenarioTest {
    @ParameterizedTest
    @CsvSource({"3, 2, DYNAMIC, 7", "4, 4, DYNAMIC, 8", "3, 3, STATIC, 9", "3, 2, ONE_DIRECTION, 10"})
    void everyMessageDeliveredOnceInOrderByteExact(int nodes, int rails, Policy policy, long seed) {
        int messages = 120;
        ScenarioResult r = MncRandomScenario.run(RunConfig.of(seed, 1_000_000),
                new MncRandomScenario.Options(messages, nodes, rails, 3, 8 * 1024, policy));
        assertThat(r.counts().get("delivered")).isEqualTo(messages);
        assertThat(r.counts().get("flows")).isEqualTo((long) nodes * (nodes - 1) * 3);
        if (policy == Policy.DYNAMIC) {
            // long messages were striped, each after one SReq/SAck exchange
            assertThat(r.counts().get("striped")).isGreaterThan(25);
            assertThat(r.counts().get("sreqs")).isEqualTo(r.counts().get("striped"));
            assertThat(r.counts().get("control_packets")).isEqualTo(2 * r.counts().get("sreqs"));
        } else {
            assertThat(r.counts().get("control_packets")).isZero();
        }
    }

    @Test
    void badOptionsAreNamed() {
        assertThatThrownBy(() -> MncRandomScenario.Options.parse(Map.of("rails", "5"))).hasMessage("--rails must be in 1..4, got 5");
        assertThatThrownBy(() -> MncRandomScenario.Options.parse(Map.of("policy", "best"))).hasMessage(
                "--policy must be dynamic, static or one-direction, got 'best'");
        assertThatThrownBy(() -> MncRandomScenario.Options.parse(Map.of("speed", "1"))).hasMessageStartingWith("unknown option --speed");
    }
}
