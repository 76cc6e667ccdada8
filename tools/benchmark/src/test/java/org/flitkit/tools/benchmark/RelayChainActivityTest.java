package org.flitkit.tools.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/** Activity skipping's chunk profile on the relay chain (docs/simulator.md, "Flags"). */
class RelayChainActivityTest {
    /** Every chunk run is counted, also of chunks woken during the cycle by values computed before them in it. */
    @Test
    void chunkProfileCountsEveryRun() {
        Simulator sim = Simulator.of(() -> new RelayChain(96, 20));
        sim.reset();
        sim.step(100);
        long before = sim.skippedChunks();
        List<Simulator.ChunkProfile> p = sim.profileChunks(500);
        long skipped = sim.skippedChunks() - before;
        double runs = p.stream().mapToDouble(Simulator.ChunkProfile::runsPerCycle).sum() * 500;
        assertThat(Math.round(runs)).isEqualTo(p.size() * 500L - skipped);
    }
}
