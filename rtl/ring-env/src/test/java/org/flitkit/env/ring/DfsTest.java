package org.flitkit.env.ring;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.testbench.RunConfig;
import org.junit.jupiter.api.Test;

/** The distributed full switch RTL: permutations never block, colliding destinations do (docs/multiring.md, "Distributed full switch"). */
class DfsTest {
    @Test
    void everyPermutationRunsWithoutBlocking() {
        DfsRun.Measured r = DfsRun.run(3, 6, 30, true, new RunConfig(4, 0, null));
        assertThat(r.delivered()).isEqualTo(9 * 30);
        assertThat(r.blocked()).isZero();
        // 6 flits through one switch register: the last leaves the switch 7 cycles after the pilot entered
        assertThat(r.minRound()).isEqualTo(7);
        assertThat(r.maxRound()).isEqualTo(7);
    }

    @Test
    void randomDestinationsMeetAtSwitchOutputsAndWait() {
        DfsRun.Measured r = DfsRun.run(3, 6, 30, false, new RunConfig(4, 0, null));
        assertThat(r.delivered()).isEqualTo(9 * 30);
        assertThat(r.blocked()).isEqualTo(144); // this seed
        assertThat(r.maxRound()).isEqualTo(19); // the worst round: packets queued behind others at one output
    }
}
