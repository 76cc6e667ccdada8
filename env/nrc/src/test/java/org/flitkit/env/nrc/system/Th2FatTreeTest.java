package org.flitkit.env.nrc.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fat tree's counts against the paper's, every port used once, and the path lengths the paper states. */
class Th2FatTreeTest {
    @Test
    void theWholeMachineHasThePapersSwitchesAndCabinets() {
        Th2FatTree t = Th2FatTree.th2();
        assertThat(t.bottomSwitches()).isEqualTo(572);
        assertThat(t.leafSwitches()).isEqualTo(960);
        assertThat(t.rootSwitches()).isEqualTo(240);
        assertThat(t.leafCabinets()).isEqualTo(16);
        assertThat(t.rootCabinets()).isEqualTo(8);
        assertThat(t.nodes()).hasSize(18_304);
        // 572 x 6 + 960 + 240 x 6; the paper says about 5,856
        assertThat(t.nrcs()).hasSize(5_832);
        // 572 x 28 in the bottom switches, 11,440 uplinks, 11,520 leaf-root, 240 x 48 in the root switches
        assertThat(t.cables()).hasSize(16_016 + 11_440 + 11_520 + 11_520);
        portsUsedOnce(t);
    }

    @Test
    void theLongestPathCrossesNineNrcsAndNoNrcIsMoreThanEightHopsFromTheServer() {
        Th2FatTree t = Th2FatTree.th2();
        int[] fromServer = distances(t, t.nodes().get(0).nrc());
        assertThat(Arrays.stream(fromServer).max().getAsInt()).isEqualTo(8);
        assertThat(Arrays.stream(fromServer).min().getAsInt()).isZero();
        // node to node: the NRCs on the way are one more than the hops between the first and the last
        int longest = 0;
        for (int n : new int[] {0, 5_000, 18_303}) {
            int[] d = distances(t, t.nodes().get(n).nrc());
            for (Th2FatTree.Node m : t.nodes()) {
                longest = Math.max(longest, d[m.nrc()] + 1);
            }
        }
        assertThat(longest).isEqualTo(9);
    }

    @Test
    void aSmallMachineIsWiredTheSameWay() {
        Th2FatTree t = new Th2FatTree(1);
        assertThat(t.bottomSwitches()).isEqualTo(4);
        assertThat(t.leafSwitches()).isEqualTo(20);
        assertThat(t.rootSwitches()).isEqualTo(20);
        assertThat(t.nodes()).hasSize(128);
        assertThat(t.nrcs()).hasSize(24 + 20 + 120);
        portsUsedOnce(t);
        // one leaf group: the farthest NRCs are the root edges without leaves, through a middle
        assertThat(Arrays.stream(distances(t, 0)).max().getAsInt()).isEqualTo(5);
        assertThatThrownBy(() -> new Th2FatTree(144)).hasMessageContaining("compute cabinets must be 1..143, got 144");
    }

    @Test
    void theScaledTopologiesByName() {
        Th2FatTree frame = Th2FatTree.named("frame");
        assertThat(frame.nrcs()).hasSize(6);
        assertThat(frame.nodes()).hasSize(32);
        // 4 lower NRCs x 7 cables up; the 20 uplinks unplugged
        assertThat(frame.cables()).hasSize(28);
        assertThat(frame.leafSwitches()).isZero();
        assertThat(frame.rootSwitches()).isZero();
        assertThat(frame.computeCabinets()).isZero();
        portsUsedOnce(frame);
        assertThat(Th2FatTree.named("cabinet").nrcs()).hasSize(164);
        Th2FatTree eighth = Th2FatTree.named("eighth");
        assertThat(eighth.computeCabinets()).isEqualTo(18);
        // 72 bottom switches in 6 groups: 120 leaves, 2 root switches per plane
        assertThat(eighth.nrcs()).hasSize(72 * 6 + 120 + 40 * 6);
        assertThat(eighth.nodes()).hasSize(2_304);
        assertThat(Th2FatTree.named("th2").nrcs()).hasSize(5_832);
        assertThatThrownBy(() -> Th2FatTree.named("rack")).hasMessage("unknown topology 'rack': one of frame, cabinet, eighth, th2");
        assertThat(frame.cableAt(0, 8)).isZero();
        assertThat(frame.cableAt(4, 10)).isZero();
        assertThat(frame.cableAt(0, 0)).isEqualTo(-1);
    }

    @Test
    void drawingsPerLevel() throws java.io.IOException {
        Th2FatTree t = new Th2FatTree(1);
        Th2Drawings d = new Th2Drawings(t);
        assertThat(d.all()).containsOnlyKeys("cabinets", "bottom-switch", "leaf-group", "root-switch");
        // one leaf cabinet's 20 leaves take the compute cabinet's 80 uplinks; every leaf-root pair of cabinets is 240 cables
        assertThat(d.cabinets()).contains("\"compute cabinet 0\" -- \"leaf cabinet 0\" [label=\"80\"]")
                .contains("240 cables between each leaf and root cabinet");
        String bottom = d.inside(Th2FatTree.Role.BOTTOM, 0);
        assertThat(bottom).contains("\"NRC 0\" -- \"NRC 4\" [label=\"4\"]", "\"NRC 0\" -- \"NRC 5\" [label=\"3\"]", "8 NICs", "10 cables to leaves");
        assertThat(new Th2Drawings(Th2FatTree.frame()).all()).containsOnlyKeys("cabinets", "bottom-switch");
        if (!Th2Drawings.hasDot()) {
            System.out.println("Th2FatTreeTest.drawingsPerLevel: graphviz's dot is not installed; rendering not checked");
            return;
        }
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("th2-drawings");
        List<java.nio.file.Path> files = d.render(dir);
        assertThat(files).hasSize(12);
        for (java.nio.file.Path f : files) {
            assertThat(java.nio.file.Files.size(f)).as(f.toString()).isGreaterThan(200);
        }
        assertThat(java.nio.file.Files.readString(dir.resolve("bottom-switch.svg"))).contains("<svg", "NRC 4");
    }

    @Test
    void aRouteFromANodeLeadsToAnNrcThatManyNrcsAwayAndBack() {
        Th2FatTree t = Th2FatTree.th2();
        java.util.Map<Long, long[]> cable = new java.util.HashMap<>();
        for (Th2FatTree.Cable c : t.cables()) {
            cable.put((long) c.a() << 8 | c.portA(), new long[] {c.b(), c.portB()});
            cable.put((long) c.b() << 8 | c.portB(), new long[] {c.a(), c.portA()});
        }
        int home = t.nodes().get(0).nrc();
        for (int hops = 1; hops <= 9; hops++) {
            Th2FatTree.Route r = t.routeFromNode(0, hops);
            assertThat(r.forward()).hasSize(hops - 1);
            assertThat(r.backward()).hasSize(hops);
            assertThat(distances(t, home)[r.target()]).isEqualTo(hops - 1);
            int at = home;
            for (int p : r.forward()) {
                at = (int) cable.get((long) at << 8 | p)[0];
            }
            assertThat(at).isEqualTo(r.target());
            for (int p : r.backward().subList(0, hops - 1)) {
                at = (int) cable.get((long) at << 8 | p)[0];
            }
            assertThat(at).isEqualTo(home);
            assertThat(r.backward().get(hops - 1)).isEqualTo(t.nodes().get(0).port());
        }
        assertThatThrownBy(() -> t.routeFromNode(0, 10)).hasMessageContaining("no NRC is 10 NRCs away from node 0 (1..9)");
    }

    private static void portsUsedOnce(Th2FatTree t) {
        boolean[][] used = new boolean[t.nrcs().size()][Th2FatTree.PORTS];
        List<int[]> ends = new ArrayList<>();
        for (Th2FatTree.Cable c : t.cables()) {
            ends.add(new int[] {c.a(), c.portA()});
            ends.add(new int[] {c.b(), c.portB()});
        }
        for (Th2FatTree.Node n : t.nodes()) {
            ends.add(new int[] {n.nrc(), n.port()});
        }
        for (int[] e : ends) {
            assertThat(e[1]).isBetween(0, Th2FatTree.PORTS - 1);
            assertThat(used[e[0]][e[1]]).as("NRC %d port %d used twice", e[0], e[1]).isFalse();
            used[e[0]][e[1]] = true;
        }
    }

    /** Hops from NRC {@code from} to every NRC (breadth first over the cables), every one reachable. */
    static int[] distances(Th2FatTree t, int from) {
        int[] d = t.distancesFrom(from);
        assertThat(Arrays.stream(d).min().getAsInt()).as("every NRC reachable").isZero();
        return d;
    }
}
