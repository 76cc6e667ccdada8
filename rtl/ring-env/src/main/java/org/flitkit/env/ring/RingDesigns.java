package org.flitkit.env.ring;

import org.flitkit.env.ring.topo.MultiRing;
import org.flitkit.env.ring.topo.Schedule;
import org.flitkit.rtl.ring.RingParams;
import org.flitkit.rtl.ring.SlottedMultiRing;
import org.flitkit.rtl.ring.SlottedRingNode;

/** The ring designs of the Verilog and difftest catalog (docs/multiring.md, "RTL"). */
public final class RingDesigns {
    private RingDesigns() {
    }

    /** One slotted-ring stop with 16-node addresses and 16-bit tags. */
    public static SlottedRingNode node() {
        return new SlottedRingNode(RingParams.forNodes(16));
    }

    /** 8 nodes on rings +-1 and +-3, tables from the shortest schedule, station queues of 4. */
    public static SlottedMultiRing multiRing8() {
        Schedule s = Schedule.shortest(MultiRing.parse(8, "1,3"));
        return new SlottedMultiRing(RingParams.forNodes(8), 8, SelectionTable.steps(s.rings()), SelectionTable.thresholds(s));
    }
}
