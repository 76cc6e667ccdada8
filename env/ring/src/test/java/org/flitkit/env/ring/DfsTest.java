package org.flitkit.env.ring;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.env.ring.topo.DesignExistence;
import org.flitkit.testbench.RunConfig;
import org.junit.jupiter.api.Test;

/** The distributed full switch RTL: permutations never block, colliding destinations do (docs/multiring.md, "Distributed full switch"). */
class DfsTest {
    @Test
    void everyPermutationRunsWithoutBlocking() {
        DfsRounds.Measured r = DfsRounds.run(3, 6, 30, true, new RunConfig(4, 0, null));
        assertThat(r.delivered()).isEqualTo(9 * 30);
        assertThat(r.blocked()).isZero();
        // 6 flits through one switch register: the last leaves the switch 7 cycles after the pilot entered
        assertThat(r.minRound()).isEqualTo(7);
        assertThat(r.maxRound()).isEqualTo(7);
    }

    @Test
    void randomDestinationsMeetAtSwitchOutputsAndWait() {
        DfsRounds.Measured r = DfsRounds.run(3, 6, 30, false, new RunConfig(4, 0, null));
        assertThat(r.delivered()).isEqualTo(9 * 30);
        assertThat(r.blocked()).isEqualTo(144); // this seed
        assertThat(r.maxRound()).isEqualTo(19); // the worst round: packets queued behind others at one output
    }

    @Test
    void onTheFanoPlaneAndOnB742PermutationsRunWithoutBlockingToo() {
        for (int a = 1; a <= 2; a++) {
            // B(7,3,1) and B(7,4,2): 7 switches, every two subscribers share a of them
            DfsRounds.Measured r = DfsRounds.run(DesignExistence.of(a == 1 ? 3 : 4, a).design(), 5, 20, true, new RunConfig(6, 0, null));
            assertThat(r.delivered()).isEqualTo(7 * 20);
            assertThat(r.blocked()).isZero();
            assertThat(r.maxRound()).isEqualTo(6);
        }
    }
}
