package org.flitkit.env.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Paper section 3.4.3 on two NICs back to back: GETs sharing the PUT VC deadlock, GETs on their own VC complete (docs/chpp-network.md). */
@ExtendWith(TestbenchExtension.class)
class DeadlockTest {
    @Test
    void getsSharingThePutVcDeadlockAndTheDiagnosisNamesTheCycle(RunConfig cfg) {
        ChppDeadlock.Config c = ChppDeadlock.Config.of(false);
        try (ChppPairEnv env = ChppDeadlock.env(cfg, c)) {
            ChppDeadlock.Outcome o = ChppDeadlock.run(env, c);
            System.out.println(ChppDeadlock.summary(o));
            System.out.println(o.diagnosis());
            assertThat(o.deadlocked()).as(ChppDeadlock.summary(o)).isTrue();
            assertThat(o.posted()).containsExactly(c.requests(), c.requests());
            assertThat(o.completed()[0] + o.completed()[1]).isLessThan(2 * c.requests());
            for (ChppDeadlock.Stuck s : o.stuck()) {
                assertThat(s.dispatchOnGet()).as("engine %d dispatch stalled on a GET", s.engine()).isTrue();
                assertThat(s.txWaits()).as("engine %d's PUTs wait for credits", s.engine()).isTrue();
            }
            for (ChppDeadlock.LinkState l : o.links()) {
                assertThat(l.credits()).as("link %d: the one shared VC, out of credits", l.link()).containsExactly(0);
                assertThat(l.buffered()).as("link %d: its far buffer full", l.link()).containsExactly(ChppDeadlock.DEPTH);
            }
            assertThat(o.diagnosis()).contains("DEADLOCK detected at cycle " + env.tb.cycle()).contains("the cycle:");
        }
    }

    @Test
    void getsOnTheirOwnVcAllCompleteWithMemoryExact(RunConfig cfg) {
        ChppDeadlock.Config c = ChppDeadlock.Config.of(true);
        try (ChppPairEnv env = ChppDeadlock.env(cfg, c)) {
            ChppDeadlock.Outcome o = ChppDeadlock.run(env, c);
            System.out.println(ChppDeadlock.summary(o));
            assertThat(o.deadlocked()).as(o.diagnosis()).isFalse();
            assertThat(o.posted()).containsExactly(c.requests(), c.requests());
            assertThat(o.completed()).containsExactly(c.requests(), c.requests());
            for (int i = 0; i < 2; i++) {
                // a GET packet is 3 beats (header + 32-byte descriptor), each on the GET VC
                assertThat(o.vcBeats()[i][1]).as("link %d GET VC beats", i).isEqualTo(c.functions() * c.gets() * 3L);
                assertThat(o.links().get(i).credits()).containsExactly(ChppDeadlock.DEPTH, ChppDeadlock.DEPTH);
                assertThat(o.links().get(i).buffered()).containsExactly(0, 0);
            }
        }
    }
}
