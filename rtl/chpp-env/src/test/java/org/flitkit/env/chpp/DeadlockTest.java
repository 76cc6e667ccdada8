package org.flitkit.env.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Paper section 3.4.3 on two NICs back to back (docs/chpp-network.md, "Tests"): with GETs on their own VC every
 * request completes, memory exact, and no PUT ever waits behind a GET; with GETs sharing the PUT VC, PUTs do wait
 * behind GETs held at the dispatch (the figure-9 dependence), which in this model resolves instead of closing a cycle.
 */
@ExtendWith(TestbenchExtension.class)
class DeadlockTest {
    @Test
    void getsSharingThePutVcHoldPutsBehindGetsAtTheDispatch(RunConfig cfg) {
        ChppDeadlock.Config c = ChppDeadlock.Config.of(false);
        try (ChppPairEnv env = ChppDeadlock.env(cfg, c)) {
            ChppDeadlock.Outcome o = ChppDeadlock.run(env, c);
            System.out.println("shared VC: " + ChppDeadlock.summary(o));
            System.out.println(o.diagnosis());
            assertThat(o.posted()).containsExactly(c.requests(0), c.requests(1));
            assertThat(o.getStalls()[0] + o.getStalls()[1]).as("cycles a dispatch held a GET with PUTs behind it").isPositive();
            assertThat(o.links()).allSatisfy(l -> assertThat(l.credits()).hasSize(1));
            // measured, not required by the paper: the send engine's shared descriptor-extract stage keeps each node's
            // GET injection to its answer rate, so the dependence never closes into a deadlock here (docs)
            assertThat(o.deadlocked()).as(o.diagnosis()).isFalse();
            assertThat(o.completed()).containsExactly(c.requests(0), c.requests(1));
        }
    }

    @Test
    void getsOnTheirOwnVcAllCompleteWithMemoryExactAndNoPutWaitsBehindAGet(RunConfig cfg) {
        ChppDeadlock.Config c = ChppDeadlock.Config.of(true);
        try (ChppPairEnv env = ChppDeadlock.env(cfg, c)) {
            long latency = ChppDeadlock.putLatency(env, 1);
            System.out.println("1-byte PUT through the link: " + latency + " cycles");
            ChppDeadlock.Outcome o = ChppDeadlock.run(env, c);
            System.out.println("own VC: " + ChppDeadlock.summary(o));
            assertThat(o.deadlocked()).as(o.diagnosis()).isFalse();
            assertThat(o.posted()).containsExactly(c.requests(0), c.requests(1));
            assertThat(o.completed()).containsExactly(c.requests(0), c.requests(1));
            assertThat(o.getStalls()).as("the grant: a GET enters the dispatch only when the GET path can take it whole").containsExactly(0, 0);
            for (int i = 0; i < 2; i++) {
                // a GET packet is 3 beats (header + 32-byte descriptor), each on the GET VC
                assertThat(o.vcBeats()[i][1]).as("link %d GET VC beats", i).isEqualTo(c.functions() * c.gets(i) * 3L);
                assertThat(o.links().get(i).credits()).containsExactly(ChppDeadlock.DEPTH, ChppDeadlock.DEPTH);
                assertThat(o.links().get(i).buffered()).containsExactly(0, 0);
            }
        }
    }
}
