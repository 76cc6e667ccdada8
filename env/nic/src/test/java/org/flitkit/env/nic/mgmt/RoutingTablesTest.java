package org.flitkit.env.nic.mgmt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.BootImage;
import org.flitkit.rtl.nma.BootLoader;
import org.junit.jupiter.api.Test;

/**
 * Routing tables by region (docs/th2-management.md, "Routing tables"): on the whole machine's cabling every NRC's
 * shortest-path sets fit a table of 1,024 entries and an E2PROM, and the replay takes shortest paths; a frame powers
 * up from its E2PROM images with tables the switches route by.
 */
class RoutingTablesTest {
    /** What discovery finds on an intact machine: every NRC's ports from the cabling plan. */
    static Discovery.Result planned(Th2FatTree tree) {
        int n = tree.nrcs().size();
        Neighbour[][] ports = new Neighbour[n][Th2.NRC_PORTS];
        for (Neighbour[] p : ports) {
            Arrays.fill(p, Neighbour.NONE);
        }
        for (Th2FatTree.Cable c : tree.cables()) {
            ports[c.a()][c.portA()] = new Neighbour(Neighbour.Kind.NRC, Th2Machine.NRC_ID_BASE + c.b(), c.portB());
            ports[c.b()][c.portB()] = new Neighbour(Neighbour.Kind.NRC, Th2Machine.NRC_ID_BASE + c.a(), c.portA());
        }
        List<Discovery.FoundNic> nics = new ArrayList<>();
        for (Th2FatTree.Node node : tree.nodes()) {
            ports[node.nrc()][node.port()] = new Neighbour(Neighbour.Kind.NIC, node.index(), 0);
            nics.add(new Discovery.FoundNic(node.index(), Th2Machine.NRC_ID_BASE + node.nrc(), node.port()));
        }
        List<Discovery.FoundNrc> nrcs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nrcs.add(new Discovery.FoundNrc(Th2Machine.NRC_ID_BASE + i, List.of(), List.of(), ports[i]));
        }
        return new Discovery.Result(nrcs, nics, List.of(), 0, 0, 0);
    }

    @Test
    void theWholeMachinesShortestPathsFitTablesByRegionAndTheE2prom() {
        Th2FatTree tree = Th2FatTree.th2();
        RoutingTables tables = RoutingTables.shortestPaths(planned(tree));
        // lower NRCs: their 8 nodes one by one, the rest up (regions of 8); upper NRCs: their frame's four lower NRCs
        // (regions of 8) or 32 nodes; leaves: their frames one by one, the rest up (regions of 32); roots: cabinets
        // (regions of 128), the rest falling back to the inside of the root switch, whose other NRCs hold every cabinet
        Map<String, Integer> kinds = new TreeMap<>();
        for (int id : tables.nrcIds()) {
            RoutingTables.Table t = tables.table(id);
            kinds.merge(tree.nrcs().get(id - Th2Machine.NRC_ID_BASE).role() + " L" + t.localBits() + " " + t.entries().size()
                    + (t.fallback() == 0 ? " no fallback" : ""), 1, Integer::sum);
        }
        assertThat(kinds).containsExactly(
                Map.entry("BOTTOM L3 4", 508),
                Map.entry("BOTTOM L3 8", 2_288),
                Map.entry("BOTTOM L5 32", 636),
                Map.entry("LEAF L5 12", 940),
                Map.entry("LEAF L5 8", 20),
                Map.entry("ROOT L7 143 no fallback", 480),
                Map.entry("ROOT L7 35", 240),
                Map.entry("ROOT L7 36", 720));
        assertThat(tables.summary()).isEqualTo("5,832 NRCs (regions of 8: 2,796, of 32: 1,596, of 128: 1,440), "
                + "155,088 entries (at most 143 per NRC), 88,848 requests to load");
        int most = 0;
        for (int id : tables.nrcIds()) {
            byte[] image = tables.eepromImage(id);
            List<BootImage.Record> records = BootImage.parse(image);
            assertThat(records.get(0)).isEqualTo(new BootImage.Record(0x000, id));
            most = Math.max(most, records.size());
        }
        // CHIP_ID, NRC_TABLE_REGION, NRC_TABLE_DEFAULT, a pointer, 143 entries
        assertThat(most).isEqualTo(147).isLessThan(BootLoader.MAX_RECORDS);

        // the replay over the tables takes a shortest path between random nodes, and reaches the destination
        Random rng = new Random(28);
        for (int k = 0; k < 2_000; k++) {
            int a = rng.nextInt(tree.nodes().size());
            int b = rng.nextInt(tree.nodes().size());
            List<RoutingTables.Hop> path = tables.replay(a, b);
            // a shortest path: one NRC more than the hops between the two nodes' NRCs
            int[] d = tree.distancesFrom(tree.nodes().get(a).nrc());
            assertThat(path).as("%d to %d", a, b).hasSize(d[tree.nodes().get(b).nrc()] + 1);
            assertThat(tables.reaches(path, b)).as("%d to %d", a, b).isTrue();
        }

        // a packet to a DestID no node has (18,400: past the last cabinet) goes up by fallbacks (lower, upper, leaf, the
        // root NRC the leaf reaches, into its root switch) and is dropped at a root NRC without one
        int nrc = Th2Machine.NRC_ID_BASE + tree.nodes().get(0).nrc();
        List<Integer> visited = new ArrayList<>(List.of(nrc));
        for (int allowed; (allowed = tables.mask(nrc, 18_400)) != 0 && visited.size() <= Th2.MAX_HOPS; visited.add(nrc)) {
            nrc = tables.nrc(nrc).ports()[Integer.numberOfTrailingZeros(allowed)].chipId();
        }
        assertThat(visited).hasSize(5);
        assertThat(tree.nrcs().get(nrc - Th2Machine.NRC_ID_BASE).role()).isEqualTo(Th2FatTree.Role.ROOT);
    }

    @Test
    void aFramePowersUpFromItsE2promImagesAndRoutesByTheirTables() {
        Th2FatTree tree = Th2FatTree.frame();
        RoutingTables plan = RoutingTables.shortestPaths(planned(tree));
        assertThat(plan.summary()).isEqualTo("6 NRCs (regions of 8: 6), 40 entries (at most 8 per NRC), 32 requests to load");
        List<byte[]> images = plan.nrcIds().stream().map(plan::eepromImage).toList();
        Th2Machine machine = new Th2Machine(tree, DiscoveryTest.PROTOS, 1, false, 0, images);
        try (ManagementServer m = new ManagementServer(machine, ManagementServer.WINDOW, ManagementServer.TIMEOUT)) {
            m.powerUp(5_000);
            Discovery.Result found = m.discover((f, d) -> { });
            assertThat(found.nrcs()).hasSize(6);
            RoutingTables tables = RoutingTables.shortestPaths(found);
            for (int id : plan.nrcIds()) {
                assertThat(tables.table(id)).as("NRC 0x%04x", id).isEqualTo(plan.table(id));
            }
            // nothing loaded in band: every hop reads what the E2PROM loaded
            Random rng = new Random(5);
            for (int k = 0; k < 100; k++) {
                int a = rng.nextInt(32);
                int b = rng.nextInt(32);
                PathTrace.Result r = PathTrace.trace(m.pipe, m.machine.fabric, tables, a, b);
                assertThat(r.hops()).as("%d to %d", a, b).isEqualTo(tables.replay(a, b));
                assertThat(r.reachable()).as("%d to %d", a, b).isTrue();
            }
        }
    }
}
