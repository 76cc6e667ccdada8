package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.env.xud.XudLossyScenario;
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
        // every count on the line is in the legend --help shows, in the same order
        assertThat(HdlCliTest.countNames(r.lastLine())).containsExactlyElementsOf(XudLossyScenario.COUNTS.keySet());
    }

    @Test
    void helpOfATestbenchListsItsOwnOptionsWithTheirDefaultsAndWhatItsCountsMean() {
        HdlCliTest.Run r = HdlCliTest.hdl("run", "xud-lossy", "--help");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\nIts options (--NAME VALUE or --NAME=VALUE):\n"
                        + "  --loss       probability a data packet is dropped (default 0.1)\n"
                        + "  --ack-loss   probability an ACK/NAK is dropped (default 0.1)\n")
                .contains("  --endpoints  adapters (default 4)\n\nIts PASS line, after cycles=N, counts:\n")
                .contains("\n  lost                messages never delivered (the run fails unless 0)\n")
                .contains("\n  data_lost           data packets the network dropped (--loss), not messages:\n"
                        + "                      the window layer resent them\n");
        // the generic options are still there, and a testbench without options says so
        assertThat(r.out()).contains("--vcd=FILE");
        assertThat(HdlCliTest.hdl("run", "flit-loopback", "--help").out()).contains("\nIt has no options of its own.\n\n"
                + "Its PASS line, after cycles=N, counts:\n  flits  flits matched in order by the scoreboard\n");
        assertThat(HdlCliTest.hdl("run", "--help").out())
                .contains("A testbench's own options and what the counts of its PASS line mean: hdl run NAME --help");
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
