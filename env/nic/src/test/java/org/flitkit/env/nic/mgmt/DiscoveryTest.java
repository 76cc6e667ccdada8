package org.flitkit.env.nic.mgmt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.rtl.nma.EepParams;
import org.junit.jupiter.api.Test;

/**
 * Discovery from NEIGHBOUR reads on machines of whole chips: a frame found exactly as cabled; a cabinet with a cable
 * cut before and an NRC dying during the search ends with the reachable part and lists what did not answer.
 */
class DiscoveryTest {
    static final Th2Machine.Protos PROTOS = new Th2Machine.Protos(EepParams.FAST);

    @Test
    void aFrameIsFoundExactlyAsCabled() {
        Th2FatTree tree = Th2FatTree.frame();
        try (ManagementServer m = new ManagementServer(tree, PROTOS, 1, 0, ManagementServer.WINDOW, ManagementServer.TIMEOUT)) {
            m.powerUp(5_000);
            Discovery.Result r = m.discover((f, d) -> { });
            assertThat(r.unreached()).isEmpty();
            assertThat(r.nrcs()).extracting(Discovery.FoundNrc::chipId).containsExactlyInAnyOrder(0x8000, 0x8001, 0x8002, 0x8003, 0x8004, 0x8005);
            assertThat(r.nics()).hasSize(32);
            for (Th2FatTree.Node n : tree.nodes()) {
                assertThat(r.nics()).contains(new Discovery.FoundNic(n.index(), Th2Machine.NRC_ID_BASE + n.nrc(), n.port()));
            }
            assertThat(cabled(r)).isEqualTo(cabled(tree, List.of()));
            assertThat(r.portCounts().values()).containsExactly(56, 32, 56, 0);
            // 1 for the server's NRC, 12 per NRC, then LINK_DOWNS for the pairs of ports with a port without neighbour
            assertThat(r.requests()).isEqualTo(1 + 6 * 12 + 30);
            assertThat(r.failures()).isZero();
            // breadth first: the server's lower NRC, the two upper ones, then the other three lower ones
            assertThat(r.nrcs()).extracting(Discovery.FoundNrc::distance).containsExactly(0, 1, 1, 2, 2, 2);
            assertThat(r.nrc(0x8005).forward()).containsExactly(8 + 4);
            assertThat(r.cycles()).isEqualTo(27_304);
        }
    }

    @Test
    void aCabinetWithACableCutBeforeAndAnNrcDyingDuringTheSearch() {
        Th2FatTree tree = new Th2FatTree(1);
        try (ManagementServer m = new ManagementServer(tree, PROTOS, 2, 0, ManagementServer.WINDOW, ManagementServer.TIMEOUT)) {
            m.powerUp(5_000);
            // cable 3: upper NRC 4 port 3 to a leaf, cut after power-up (both ends saw it up, then down)
            m.machine.cut(3, true);
            m.machine.fabric.run(3_000);
            // a root's middle NRC dies as soon as the search has found it, before any of its ports is read
            int dying = tree.nrcs().size() - 1;
            Discovery.Result r = m.discover(new Discovery.Progress() {
                @Override
                public void update(int found, int read) {
                }

                @Override
                public void found(Discovery.FoundNrc n) {
                    if (n.chipId() == Th2Machine.NRC_ID_BASE + dying) {
                        m.machine.kill(dying);
                    }
                }
            });
            // found before it died: listed, its 12 reads ended in timeouts, nothing else failed
            assertThat(r.nrcs()).hasSize(164);
            assertThat(r.nrc(Th2Machine.NRC_ID_BASE + dying).ports()).containsOnlyNulls();
            assertThat(r.unreached()).hasSize(12).allSatisfy(u -> {
                assertThat(u.chipId()).isEqualTo(Th2Machine.NRC_ID_BASE + dying);
                assertThat(u.what()).endsWith("no answer in 20000 cycles");
            });
            assertThat(r.failures()).isEqualTo(12);
            // every other NRC as cabled, but the cut cable, whose ends are down
            Set<String> found = without(cabled(r), dying);
            assertThat(found).isEqualTo(without(cabled(tree, List.of(3)), dying));
            assertThat(r.nrc(0x8004).ports()[3]).isEqualTo(Neighbour.DOWN);
            assertThat(r.portCounts().get(Neighbour.Kind.NIC)).isEqualTo(128);
            assertThat(r.portCounts().get(Neighbour.Kind.NONE)).isEqualTo(1024);
            // the cut's two ends and 20 of the dead NRC's 24 neighbours (4 were read while it was alive)
            assertThat(r.portCounts().get(Neighbour.Kind.DOWN)).isEqualTo(22);
        }
    }

    /** The NRC-to-NRC port pairs discovery found, as "nrc:port-nrc:port" of tree indexes, both directions. */
    static Set<String> cabled(Discovery.Result r) {
        Set<String> found = new HashSet<>();
        for (Discovery.FoundNrc n : r.nrcs()) {
            for (int p = 0; p < 24; p++) {
                Neighbour nb = n.ports()[p];
                if (nb != null && nb.kind() == Neighbour.Kind.NRC) {
                    found.add((n.chipId() - Th2Machine.NRC_ID_BASE) + ":" + p + "-" + (nb.chipId() - Th2Machine.NRC_ID_BASE) + ":" + nb.port());
                }
            }
        }
        return found;
    }

    /** {@code pairs} without those that have NRC {@code nrc} at either end. */
    static Set<String> without(Set<String> pairs, int nrc) {
        Set<String> out = new HashSet<>();
        for (String p : pairs) {
            if (!p.startsWith(nrc + ":") && !p.contains("-" + nrc + ":")) {
                out.add(p);
            }
        }
        return out;
    }

    /** The same pairs from the tree's cables, less the cables {@code cut}. */
    static Set<String> cabled(Th2FatTree tree, List<Integer> cut) {
        Set<String> cabled = new HashSet<>();
        for (int i = 0; i < tree.cables().size(); i++) {
            Th2FatTree.Cable c = tree.cables().get(i);
            if (!cut.contains(i)) {
                cabled.add(c.a() + ":" + c.portA() + "-" + c.b() + ":" + c.portB());
                cabled.add(c.b() + ":" + c.portB() + "-" + c.a() + ":" + c.portA());
            }
        }
        return cabled;
    }
}
