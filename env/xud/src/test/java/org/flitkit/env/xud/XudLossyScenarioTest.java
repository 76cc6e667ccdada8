package org.flitkit.env.xud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.ScenarioResult;
import org.junit.jupiter.api.Test;

class XudLossyScenarioTest {
    @Test
    void everyMessageDeliveredExactlyOnceOverALossyNetwork() {
        XudLossyScenario.Options o = new XudLossyScenario.Options(new Faults(0.1, 0.1, 0.05, 0.05, 0.01), 3_000, 32, 4);
        ScenarioResult r = XudLossyScenario.run(RunConfig.of(1, 2_000_000), o);
        assertThat(r.counts()).containsEntry("delivered", 3_000L).containsEntry("lost", 0L).containsEntry("duplicated", 0L)
                .containsEntry("timeouts", 739L).containsEntry("naks", 23L).containsEntry("resends", 762L)
                .containsEntry("duplicates_dropped", 542L);
        // every resend answers a timeout or a NAK; every lost packet (data or ACK) cost a timeout
        assertThat(r.counts().get("resends")).isEqualTo(r.counts().get("timeouts") + r.counts().get("naks") + r.counts().get("rnr_naks"));
        assertThat(r.counts().get("timeouts")).isGreaterThanOrEqualTo(r.counts().get("data_lost") + r.counts().get("acks_lost"));
    }

    @Test
    void aPerfectNetworkNeedsNoResend() {
        ScenarioResult r = XudLossyScenario.run(RunConfig.of(1, 2_000_000), new XudLossyScenario.Options(Faults.NONE, 2_000, 32, 4));
        assertThat(r.counts()).containsEntry("delivered", 2_000L).containsEntry("timeouts", 0L).containsEntry("resends", 0L)
                .containsEntry("duplicates_dropped", 0L);
    }

    @Test
    void optionsAreParsedAndCheckedByName() {
        XudLossyScenario.Options o = XudLossyScenario.Options.parse(Map.of("loss", "0.2", "messages", "100_000", "windows", "8"));
        assertThat(o.faults().loss()).isEqualTo(0.2);
        assertThat(o.faults().ackLoss()).isEqualTo(0.1);
        assertThat(o.messages()).isEqualTo(100_000);
        assertThat(o.windows()).isEqualTo(8);
        assertThatThrownBy(() -> XudLossyScenario.Options.parse(Map.of("los", "0.2"))).hasMessageStartingWith("unknown option --los; xud-lossy takes --loss");
        assertThatThrownBy(() -> XudLossyScenario.Options.parse(Map.of("dup", "x"))).hasMessage("--dup needs a number, got 'x'");
        assertThatThrownBy(() -> XudLossyScenario.Options.parse(Map.of("reorder", "1"))).hasMessage("--reorder is a probability in [0, 1), got 1.0");
        assertThatThrownBy(() -> XudLossyScenario.Options.parse(Map.of("windows", "70000"))).hasMessage("--windows must be in 1..65536, got 70000");
    }
}
