package org.flitkit.env.nic.mgmt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.junit.jupiter.api.Test;

/**
 * Routing tables generated from discovery, loaded in band, read back hop by hop by path traces: on a frame, 1,000
 * random pairs traced through the RTL's tables take the path the software replay of the generated tables takes.
 */
class PathTraceTest {
    @Test
    void tracesThroughTheLoadedTablesAgreeWithTheReplayOnRandomPairs() {
        Th2FatTree tree = Th2FatTree.frame();
        try (ManagementServer m = new ManagementServer(tree, DiscoveryTest.PROTOS, 1, 0, ManagementServer.WINDOW, ManagementServer.TIMEOUT)) {
            m.powerUp(5_000);
            Discovery.Result found = m.discover((f, d) -> { });
            RoutingTables tables = RoutingTables.shortestPaths(found);
            assertThat(tables.load(m.pipe)).isZero();
            // node 0 (NRC 0 port 0) to node 31 (NRC 3 port 7): up to either upper NRC, the lowest port wins, then down
            PathTrace.Result one = PathTrace.trace(m.pipe, m.machine.fabric, tables, 0, 31);
            assertThat(one.reachable()).isTrue();
            assertThat(one.steps()).extracting(Object::toString).containsExactly(
                    "NRC 0x8000 in 0 allowed {8,9,10,11,12,13,14} out 8, link up on 8 lanes",
                    "NRC 0x8004 in 10 allowed {21,22,23} out 21, link up on 8 lanes",
                    "NRC 0x8003 in 12 allowed {7} out 7, link up on 8 lanes");
            Random rng = new Random(28);
            int traced = 0;
            for (int k = 0; k < 1_000; k++) {
                int a = rng.nextInt(32);
                int b = rng.nextInt(32);
                PathTrace.Result r = PathTrace.trace(m.pipe, m.machine.fabric, tables, a, b);
                List<RoutingTables.Hop> replay = tables.replay(a, b);
                assertThat(r.hops()).as("%d to %d", a, b).isEqualTo(replay);
                assertThat(r.reachable()).as("%d to %d", a, b).isTrue();
                traced++;
            }
            assertThat(traced).isEqualTo(1_000);
        }
    }
}
