package org.flitkit.rtl.nrc.switchcore;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Hex;
import org.flitkit.testbench.stream.Throttle;

/**
 * The NRC upstream of one input port: sends queued packets with virtual cut-through, a packet only when its view
 * of the port's input buffer has room for all of it, and takes back one slot per {@code creditOut} pulse (a pulse
 * for a slot it does not hold fails the run). Gaps between flits, inside packets too, come from a {@link Throttle}.
 * docs/th2-nrc-switch.md ("reservation scheme", "virtual cut-through").
 */
final class UpstreamLink extends Component {
    private final Valid<UInt> in;
    private final Valid<UInt> creditOut;
    private final SwitchParams p;
    private final ArrayDeque<List<BigInteger>> queue = new ArrayDeque<>();
    private final int[] occ;
    private Throttle gaps = Throttle.NONE;
    private List<BigInteger> sending;
    private int next;
    private long flitsSent;
    /** the cycle each packet's head went out, in send order */
    final List<Long> headCycles = new ArrayList<>();
    /** the cycle of each credit the port returned */
    final List<Long> creditCycles = new ArrayList<>();

    UpstreamLink(String name, SwitchCore core, int port) {
        super(name);
        in = core.in.get(port);
        creditOut = core.creditOut.get(port);
        p = core.params;
        occ = new int[p.vcs()];
    }

    UpstreamLink gaps(Throttle t) {
        gaps = t;
        return this;
    }

    void send(List<BigInteger> packet) {
        queue.add(packet);
    }

    /** Nothing left to send. */
    boolean idle() {
        return queue.isEmpty() && sending == null;
    }

    /** Every slot this link used in the port's buffer has come back. */
    boolean drained() {
        for (int o : occ) {
            if (o != 0) {
                return false;
            }
        }
        return true;
    }

    long flitsSent() {
        return flitsSent;
    }

    @Override
    protected void reset() {
        sim().poke(in.valid, 0);
    }

    @Override
    protected void drive() {
        if (sending == null && !queue.isEmpty()) {
            List<BigInteger> pk = queue.peek();
            int vc = DataPackets.vc(pk);
            if (DataPackets.fits(p, occ, vc, pk.size())) {
                queue.poll();
                occ[vc] += pk.size();
                sending = pk;
                next = 0;
            }
        }
        boolean valid = sending != null && gaps.allow(rng(), cycle());
        if (valid) {
            if (next == 0) {
                headCycles.add(cycle());
            }
            sim().poke(in.bits, sending.get(next++));
            flitsSent++;
            if (next == sending.size()) {
                sending = null;
            }
        }
        sim().poke(in.valid, valid ? 1 : 0);
    }

    @Override
    protected void sample() {
        if (sim().peek(creditOut.valid) != 0) {
            int vc = (int) sim().peek(creditOut.bits);
            if (vc >= occ.length || occ[vc] == 0) {
                throw fail("a credit for VC" + vc + " returned, but this link holds no slot of it");
            }
            occ[vc]--;
            creditCycles.add(cycle());
        }
    }

    @Override
    public List<String> describeState() {
        return idle() && drained() ? List.of()
                : describe(queue.size() + " packet(s) queued, slots held per VC " + Arrays.toString(occ), queue, 3,
                        pk -> "packet of " + pk.size() + " flit(s), head " + Hex.of(pk.get(0), 198));
    }
}
