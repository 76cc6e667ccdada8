package org.flitkit.env.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Paper section 3.4.3 on two NICs back to back (docs/chpp-network.md, "Tests"): both nodes GET from each other at
 * once over 200-cycle links with 32-beat buffers. GETs sharing the PUT VC deadlock (figure 9), diagnosed; GETs on
 * their own VC (figure 10) all complete, host memory exact, and no PUT ever waits behind a GET.
 */
@ExtendWith(TestbenchExtension.class)
class ChppDeadlockScenarioTest {
    @Test
    void getsSharingThePutVcDeadlockAndTheDiagnosisNamesTheCycle(RunConfig cfg) {
        ChppDeadlockScenario.Config c = ChppDeadlockScenario.Config.of(false);
        try (ChppPairEnv env = ChppDeadlockScenario.env(cfg, c)) {
            ChppDeadlockScenario.Outcome o = ChppDeadlockScenario.run(env, c);
            System.out.println("shared VC: " + ChppDeadlockScenario.summary(o));
            System.out.print(o.diagnosis());
            assertThat(o.deadlocked()).as(ChppDeadlockScenario.summary(o)).isTrue();
            assertThat(o.posted()).containsExactly(32, 32);
            assertThat(o.completed()[0] + o.completed()[1]).isLessThan(64);
            assertThat(env.tb.cycle()).isEqualTo(o.stuckSince() + ChppDeadlockScenario.STALL);
            for (ChppDeadlockScenario.Stuck s : o.stuck()) {
                assertThat(s.dispatchOnGet()).as("engine %d's dispatch holds a GET", s.engine()).isTrue();
                assertThat(s.getQueue()).as("engine %d's GET queue", s.engine()).isEqualTo(6);
                assertThat(s.answerWaits()).as("engine %d's answer waits for its send engine", s.engine()).isTrue();
                assertThat(s.txWaits()).as("engine %d's PUTs wait for credits", s.engine()).isTrue();
            }
            for (ChppDeadlockScenario.LinkState l : o.links()) {
                assertThat(l.credits()).as("link %d: its one VC out of credits", l.link()).containsExactly(0);
                assertThat(l.buffered()).as("link %d: its far buffer full", l.link()).containsExactly(ChppDeadlockScenario.DEPTH);
            }
            assertThat(o.diagnosis()).startsWith("DEADLOCK detected at cycle " + env.tb.cycle() + ": no beat on either link")
                    .contains("since cycle " + o.stuckSince()).contains("the cycle:");
        }
    }

    @Test
    void getsOnTheirOwnVcAllCompleteWithMemoryExactAndNoPutWaitsBehindAGet(RunConfig cfg) {
        ChppDeadlockScenario.Config c = ChppDeadlockScenario.Config.of(true);
        try (ChppPairEnv env = ChppDeadlockScenario.env(cfg, c)) {
            ChppDeadlockScenario.Outcome o = ChppDeadlockScenario.run(env, c);
            System.out.println("own VC: " + ChppDeadlockScenario.summary(o));
            assertThat(o.deadlocked()).as(o.diagnosis()).isFalse();
            assertThat(o.posted()).containsExactly(32, 32);
            assertThat(o.completed()).containsExactly(32, 32);
            assertThat(o.getStalls()).as("the grant: a GET enters the dispatch only when the GET path can take it whole").containsExactly(0, 0);
            for (int i = 0; i < 2; i++) {
                // a GET packet is 3 beats (header + 32-byte descriptor), each on the GET VC
                assertThat(o.vcBeats()[i][1]).as("link %d GET VC beats", i).isEqualTo(32 * 3);
                assertThat(o.links().get(i).credits()).containsExactly(ChppDeadlockScenario.DEPTH, ChppDeadlockScenario.DEPTH);
                assertThat(o.links().get(i).buffered()).containsExactly(0, 0);
            }
        }
    }

    /** The scenario's link against the crossbar: the 1-byte PUT arrives byte-exact through both (docs: the numbers). */
    @Test
    void onePutByteThroughTheLinkTakesTheWireBothWays(RunConfig cfg) {
        long shortLink;
        long longLink;
        try (ChppPairEnv env = new ChppPairEnv(cfg, 8, 4, true)) {
            shortLink = ChppDeadlockScenario.putLatency(env, 1);
        }
        try (ChppPairEnv env = new ChppPairEnv(cfg, ChppDeadlockScenario.DEPTH, ChppDeadlockScenario.LATENCY, true)) {
            longLink = ChppDeadlockScenario.putLatency(env, 1);
        }
        System.out.printf("1-byte PUT: %d cycles over a 4-cycle link, %d over a %d-cycle link%n", shortLink, longLink, ChppDeadlockScenario.LATENCY);
        // the PUT crosses the wire once (one way); nothing else on its path depends on the link's latency
        assertThat(longLink - shortLink).isEqualTo(ChppDeadlockScenario.LATENCY - 4);
    }
}
