package org.flitkit.env.nrc.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
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

    /** Hops from NRC {@code from} to every NRC (breadth first over the cables). */
    static int[] distances(Th2FatTree t, int from) {
        int n = t.nrcs().size();
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            adj.add(new ArrayList<>());
        }
        for (Th2FatTree.Cable c : t.cables()) {
            adj.get(c.a()).add(c.b());
            adj.get(c.b()).add(c.a());
        }
        int[] d = new int[n];
        Arrays.fill(d, -1);
        d[from] = 0;
        ArrayDeque<Integer> q = new ArrayDeque<>(List.of(from));
        while (!q.isEmpty()) {
            int x = q.poll();
            for (int y : adj.get(x)) {
                if (d[y] < 0) {
                    d[y] = d[x] + 1;
                    q.add(y);
                }
            }
        }
        assertThat(Arrays.stream(d).min().getAsInt()).as("every NRC reachable").isZero();
        return d;
    }
}
