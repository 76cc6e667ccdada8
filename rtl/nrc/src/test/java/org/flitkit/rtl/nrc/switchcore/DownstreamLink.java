package org.flitkit.rtl.nrc.switchcore;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.hdl.lib.Valid;
import org.flitkit.rtl.link.CreditReturn;
import org.flitkit.testbench.Component;

/**
 * The NRC downstream of one output port, credit side: holds each flit the core sends in its input buffer (same
 * shape as the core's), checks that every head arrives with room for its whole packet on its VC (virtual
 * cut-through), and frees each slot after a random delay of {@code minDelay..maxDelay} cycles, returned on
 * {@code creditIn} one VC per cycle, merged. A VC can be held back (its credits kept until released).
 * docs/th2-nrc-switch.md ("reservation scheme"); the link layer's {@code CreditReturn}.
 */
final class DownstreamLink extends Component {
    private final Valid<CreditReturn> creditIn;
    private final SwitchParams p;
    private final int[] occ;
    private final int[] owed;
    private final boolean[] held;
    private final ArrayDeque<long[]> pending = new ArrayDeque<>(); // {due cycle, vc}
    private int minDelay = 1;
    private int maxDelay = 1;
    private int vc;
    private int rotate;

    DownstreamLink(String name, SwitchCore core, int port) {
        super(name);
        creditIn = core.creditIn.get(port);
        p = core.params;
        occ = new int[p.vcs()];
        owed = new int[p.vcs()];
        held = new boolean[p.vcs()];
    }

    DownstreamLink delay(int min, int max) {
        minDelay = min;
        maxDelay = max;
        return this;
    }

    /** Keeps (true) or releases (false) the credits of {@code v}. */
    void hold(int v, boolean keep) {
        held[v] = keep;
    }

    /** A flit taken from the output (subscribe to the output's beats). */
    void accept(BigInteger flit) {
        if (DataPackets.isHead(flit)) {
            vc = (int) DataPackets.get(flit, DataLayouts.HEAD.VC);
            int len = (int) DataPackets.get(flit, DataLayouts.HEAD.LEN);
            if (!DataPackets.fits(p, occ, vc, len)) {
                throw fail("a " + len + "-flit packet on VC" + vc + " arrived with room for less (held per VC "
                        + Arrays.toString(occ) + "): virtual cut-through violated");
            }
        }
        occ[vc]++;
        int d = minDelay + (maxDelay > minDelay ? rng().nextInt(maxDelay - minDelay + 1) : 0);
        pending.add(new long[] {cycle() + d, vc});
    }

    /** Every slot freed and returned. */
    boolean drained() {
        for (int o : occ) {
            if (o != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected void reset() {
        sim().poke(creditIn.valid, 0);
    }

    @Override
    protected void drive() {
        while (!pending.isEmpty() && pending.peek()[0] <= cycle()) {
            owed[(int) pending.poll()[1]]++;
        }
        int ret = -1;
        for (int k = 0; k < owed.length && ret < 0; k++) {
            int v = (rotate + k) % owed.length;
            if (owed[v] > 0 && !held[v]) {
                ret = v;
            }
        }
        rotate++;
        if (ret >= 0) {
            int count = Math.min(owed[ret], 255);
            owed[ret] -= count;
            occ[ret] -= count;
            sim().poke(creditIn.bits.vc, ret);
            sim().poke(creditIn.bits.count, count);
        }
        sim().poke(creditIn.valid, ret >= 0 ? 1 : 0);
    }

    @Override
    public List<String> describeState() {
        return drained() ? List.of() : List.of("slots held per VC " + Arrays.toString(occ));
    }
}
