package org.flitkit.env.xud;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.env.xud.HostEndpoint.RecvCompletion;
import org.flitkit.env.xud.HostEndpoint.SendCompletion;
import org.flitkit.env.host.DmaParams;
import org.flitkit.formats.xud.XudFormat.SendStatus;
import org.flitkit.testbench.RunConfig;
import org.junit.jupiter.api.Test;

/**
 * The same lossy network without the window layer: each message is posted once and nobody resends or
 * dedupes. The hardware reports every loss as a timeout, but a timeout may also hide a delivered message
 * whose ACK was lost, and network duplicates are delivered twice: what the paper leaves to software (section 3).
 */
class BareHardwareTest {
    private static final int MESSAGES = 2_000;

    @Test
    void theHardwareAloneLosesAndDuplicatesAndItsTimeoutsAreAmbiguous() {
        var p = XudLossyScenario.PARAMS;
        try (XudEnv env = new XudEnv(RunConfig.of(7, 0), 4, p, DmaParams.defaults(), new Faults(0.1, 0.1, 0.05, 0.05, 0), XudEnv.psns(p, 0))) {
            ExactlyOnce board = env.tb.add(new ExactlyOnce("board"));
            long[] statuses = new long[SendStatus.values().length];
            long[] timedOutIds = new long[MESSAGES];
            int[] timedOut = {0};
            for (HostEndpoint h : env.hosts()) {
                h.listener(new HostEndpoint.Listener() {
                    @Override
                    public void onSend(HostEndpoint host, SendCompletion c) {
                        statuses[c.status().code()]++;
                        if (c.status() == SendStatus.TIMEOUT) {
                            timedOutIds[timedOut[0]++] = c.wrId();
                        }
                    }

                    @Override
                    public void onRecv(HostEndpoint host, RecvCompletion c) {
                        board.delivered(host.index(), c.slid(), c.srcQp(), c.qp(), 0, c.data());
                    }
                });
            }
            for (int id = 0; id < MESSAGES; id++) {
                HostEndpoint from = env.host(id % 4);
                int to = (id % 4 + 1 + id / 4 % 3) % 4;
                from.postSend(id % 2, XudBoard.lidOf(to), id / 2 % 2, WindowLayer.Q_KEY, 0, 0, board.message(id, 16), id);
            }
            env.tb.runUntil("every request completed", () -> statuses[0] + statuses[1] == MESSAGES, 100_000);
            env.tb.run(2L * p.timeoutCycles());

            long deliveredButTimedOut = 0;
            for (int i = 0; i < timedOut[0]; i++) {
                if (board.deliveredOnce(timedOutIds[i])) {
                    deliveredButTimedOut++;
                }
            }
            assertThat(statuses[SendStatus.SUCCESS.code()] + statuses[SendStatus.TIMEOUT.code()]).isEqualTo(MESSAGES);
            assertThat(board.lost()).as("lost").isEqualTo(206);
            assertThat(board.duplicated()).as("duplicated").isEqualTo(91);
            assertThat(statuses[SendStatus.TIMEOUT.code()]).as("timeouts").isEqualTo(386);
            assertThat(deliveredButTimedOut).as("timeouts of delivered messages (their ACK was lost)").isEqualTo(180);
            // every timeout is either a lost message or a lost ACK: the sender cannot tell which
            assertThat(statuses[SendStatus.TIMEOUT.code()]).isEqualTo(board.lost() + deliveredButTimedOut);
        }
    }
}
