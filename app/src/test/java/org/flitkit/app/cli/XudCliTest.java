package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code hdl run xud-lossy} with the scenario's own options, and the errors for options a testbench does not have. */
class XudCliTest {
    @Test
    void xudLossyTakesItsOwnOptionsAndEndsWithTheDeliveryCounts() {
        HdlCliTest.Run r = HdlCliTest.hdl("run", "xud-lossy", "--loss", "0.2", "--ack-loss=0.1", "--messages", "500", "--seed", "3", "-q");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.outLines().get(r.outLines().size() - 1))
                .startsWith("PASS xud-lossy seed=3 cycles=")
                .contains(" delivered=500 lost=0 duplicated=0 timeouts=");
    }

    @Test
    void unknownOrMalformedScenarioOptionsExitWith2() {
        HdlCliTest.Run r = HdlCliTest.hdl("run", "xud-lossy", "--los", "0.2");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("testbench xud-lossy has no option --los; its options: --loss, --ack-loss, --dup");
        r = HdlCliTest.hdl("run", "xud-lossy", "--loss");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("option --loss needs a value");
        r = HdlCliTest.hdl("run", "flit-loopback", "--loss", "0.1");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("testbench flit-loopback has no option --loss");
    }
}
