package org.flitkit.env.ring;

import org.flitkit.env.ring.topo.MultiRing;
import org.flitkit.env.ring.topo.QuasiCompleteDigraph;
import org.flitkit.rtl.ring.DfsSwitch;
import org.flitkit.env.ring.topo.Schedule;
import org.flitkit.rtl.ring.RegisterInsertionNode;
import org.flitkit.rtl.ring.RingKind;
import org.flitkit.rtl.ring.RingParams;
import org.flitkit.rtl.ring.MultiRingNetwork;
import org.flitkit.rtl.ring.SlottedRingNode;

/** The ring designs of the Verilog and difftest catalog (docs/multiring.md, "RTL"). */
public final class RingDesigns {
    private RingDesigns() {
    }

    /** One slotted-ring stop with 16-node addresses and 16-bit tags. */
    public static SlottedRingNode node() {
        return new SlottedRingNode(RingParams.forNodes(16));
    }

    /** One register-insertion stop with its insertion buffer, 16-node addresses. */
    public static RegisterInsertionNode insertionNode() {
        return new RegisterInsertionNode(RingParams.forNodes(16), RingKind.INSERTION_BUFFER);
    }

    /** One 4 x 4 switch of the distributed full switch on 16 subscribers (quasi-complete digraph, m = 4). */
    public static DfsSwitch dfsSwitch() {
        QuasiCompleteDigraph g = new QuasiCompleteDigraph(4);
        long[] route = new long[g.nodes()];
        java.util.Arrays.fill(route, g.ports());
        for (int j = 0; j < g.ports(); j++) {
            route[g.to(0, j)] = j;
        }
        return new DfsSwitch(g.ports(), 4, g.nodes(), route);
    }

    /** 8 nodes on rings +-1 and +-3, tables from the shortest schedule, station queues of 4. */
    public static MultiRingNetwork multiRing8() {
        Schedule s = Schedule.shortest(MultiRing.parse(8, "1,3"));
        return new MultiRingNetwork(RingParams.forNodes(8), RingKind.SLOTTED, 8, SelectionTable.steps(s.rings()), SelectionTable.thresholds(s));
    }
}
