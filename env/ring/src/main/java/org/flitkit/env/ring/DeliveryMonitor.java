package org.flitkit.env.ring;

import org.flitkit.hdl.lib.Valid;
import org.flitkit.hdl.Vec;
import org.flitkit.rtl.ring.Delivery;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.scoreboard.Scoreboard;

/**
 * Watches every node's removals on every ring: each goes to the scoreboard (which checks it was sent, to this node,
 * once), and inside the measurement window it counts per ring, with the full slots of each ring per cycle.
 */
final class DeliveryMonitor extends Component {
    private final Vec<Valid<Delivery>> eject;
    private final Vec<org.flitkit.hdl.UInt> busy;
    private final int nodes;
    private final int rings;
    private final Scoreboard<RingPacket> board;
    private final DeliveryTimes times;
    private boolean measuring;
    private long windowCycles;
    final long[] perRing;
    final long[] busySlots;

    DeliveryMonitor(String name, Vec<Valid<Delivery>> eject, Vec<org.flitkit.hdl.UInt> busy, int nodes, int rings, Scoreboard<RingPacket> board,
            DeliveryTimes times) {
        super(name);
        this.eject = eject;
        this.busy = busy;
        this.nodes = nodes;
        this.rings = rings;
        this.board = board;
        this.times = times;
        perRing = new long[rings];
        busySlots = new long[rings];
    }

    void measure(boolean on) {
        measuring = on;
    }

    long windowCycles() {
        return windowCycles;
    }

    @Override
    protected void sample() {
        for (int x = 0; x < nodes; x++) {
            for (int j = 0; j < rings; j++) {
                Valid<Delivery> e = eject.get(x * rings + j);
                if (sim().peekBool(e.valid)) {
                    int src = (int) sim().peek(e.bits.src);
                    int tag = (int) sim().peek(e.bits.tag);
                    board.observe(new RingPacket(src, x, tag));
                    times.delivered(src, tag, cycle(), measuring);
                    if (measuring) {
                        perRing[j]++;
                    }
                }
            }
        }
        if (measuring) {
            windowCycles++;
            for (int j = 0; j < rings; j++) {
                busySlots[j] += sim().peek(busy.get(j));
            }
        }
    }
}
