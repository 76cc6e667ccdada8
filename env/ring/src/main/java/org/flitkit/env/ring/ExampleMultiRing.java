package org.flitkit.env.ring;

import org.flitkit.env.ring.topo.MultiRing;
import org.flitkit.env.ring.topo.RingSchedule;
import org.flitkit.rtl.ring.MultiRingNetwork;
import org.flitkit.rtl.ring.RingKind;
import org.flitkit.rtl.ring.RingParams;

/**
 * A small slotted multi-ring for {@code ./hdl verilog --class} and {@code ./hdl sim --class}: 8 nodes, rings +-1 and
 * +-3, the shortest schedule's selection tables, station queues of 4 (docs/multiring.md, "RTL").
 */
public final class ExampleMultiRing extends MultiRingNetwork {
    private static final RingSchedule SCHEDULE = RingSchedule.shortest(MultiRing.parse(8, "1,3"));

    public ExampleMultiRing() {
        super(RingParams.forNodes(8), RingKind.SLOTTED, 8, SelectionTable.steps(SCHEDULE.rings()), SelectionTable.thresholds(SCHEDULE));
    }
}
