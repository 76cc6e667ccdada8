package org.flitkit.rtl.chpp;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Component;

/**
 * A reference model of the {@link TagAllocator}, checked against it every cycle (docs/chpp-dma.md, "Tag
 * allocator"): no tag granted while in flight or quarantined; freeCount == tags - popcount(inFlight | quarantined);
 * the in-flight and quarantine bitmaps and every counter equal the model's; a timeout is reported exactly when
 * the model's oldest unreleased read reaches {@code completionTimeout} cycles, and for that tag; alloc holds its
 * offer until taken, and a new offer is the lowest tag that was free when it was chosen. At the end ({@link #finish()}): every tag free.
 */
public final class TagScoreboard extends Component {
    private enum State { FREE, IN_FLIGHT, QUARANTINED }

    private final TagAllocator dut;
    private final int tags;
    private final int limit;
    private final State[] state;
    /** grant cycle (in flight) or timeout-report cycle (quarantined) */
    private final long[] since;
    private long grants, releases, errors, late, spurious, timeouts;
    /** the offer seen last cycle that was not taken (-1: none) */
    private long heldOffer = -1;

    public TagScoreboard(String name, TagAllocator dut) {
        super(name);
        this.dut = dut;
        this.tags = dut.params.tags();
        this.limit = dut.params.completionTimeout();
        state = new State[tags];
        since = new long[tags];
        java.util.Arrays.fill(state, State.FREE);
    }

    @Override
    protected void reset() {
        java.util.Arrays.fill(state, State.FREE);
        heldOffer = -1;
        nextOffer = UNKNOWN;
    }

    @Override
    protected void sample() {
        Simulator sim = sim();
        long now = cycle();
        BigInteger inFlight = sim.peekBig(dut.inFlight);
        BigInteger quarantined = sim.peekBig(dut.quarantined);
        checkEqual("inFlight bitmap", bitmap(State.IN_FLIGHT), inFlight);
        checkEqual("quarantined bitmap", bitmap(State.QUARANTINED), quarantined);
        checkEqual("freeCount == tags - popcount(inFlight | quarantined)", (long) tags - inFlight.or(quarantined).bitCount(),
                sim.peek(dut.freeCount));

        boolean offered = sim.peekBool(dut.alloc.valid);
        long offer = sim.peek(dut.alloc.bits);
        if (heldOffer >= 0) {
            if (!offered || offer != heldOffer) {
                throw fail("alloc dropped or changed its offer of tag " + heldOffer + " before it was taken");
            }
        }
        boolean fire = offered && sim.peekBool(dut.alloc.ready);
        if (offered && state[(int) offer] != State.FREE) {
            throw fail("alloc offers tag " + offer + " which is " + state[(int) offer]);
        }
        if (nextOffer != UNKNOWN) {
            // the offer register loaded at the last edge: the lowest tag free then, other than the one taken
            checkEqual("alloc offer (lowest free tag)", nextOffer >= 0 ? "tag " + nextOffer : "nothing",
                    offered ? "tag " + offer : "nothing");
        }
        nextOffer = UNKNOWN;
        if (!offered || fire) {
            nextOffer = -1;
            for (int t = 0; t < tags && nextOffer < 0; t++) {
                if (state[t] == State.FREE && !(offered && t == offer)) {
                    nextOffer = t;
                }
            }
        }
        heldOffer = offered && !fire ? offer : -1;

        boolean rel = sim.peekBool(dut.release.valid);
        int relTag = (int) sim.peek(dut.release.bits.tag);
        boolean relError = sim.peekBool(dut.release.bits.error);
        State relState = rel && relTag < tags ? state[relTag] : State.FREE;

        // which read must time out now: the lowest in-flight tag at the limit that is not being released
        int expect = -1;
        for (int t = 0; t < tags && expect < 0; t++) {
            if (state[t] == State.IN_FLIGHT && now - since[t] >= limit && !(rel && relTag == t)) {
                expect = t;
            }
        }
        boolean to = sim.peekBool(dut.timedOut.valid);
        if (to != (expect >= 0) || to && sim.peek(dut.timedOut.bits) != expect) {
            throw fail("timedOut: expected " + (expect >= 0 ? "tag " + expect : "none") + ", observed "
                    + (to ? "tag " + sim.peek(dut.timedOut.bits) : "none"));
        }

        // next state, in the DUT's priority: grant, release, timeout report, end of quarantine
        if (rel) {
            switch (relState) {
                case IN_FLIGHT -> {
                    releases++;
                    if (relError) {
                        errors++;
                    }
                    state[relTag] = State.FREE;
                }
                case QUARANTINED -> {
                    late++;
                    state[relTag] = State.FREE;
                }
                case FREE -> spurious++;
            }
        }
        if (expect >= 0) {
            timeouts++;
            state[expect] = State.QUARANTINED;
            since[expect] = now;
        }
        for (int t = 0; t < tags; t++) {
            if (state[t] == State.QUARANTINED && since[t] != now && now - since[t] >= limit) {
                state[t] = State.FREE;
            }
        }
        if (fire) {
            grants++;
            state[(int) offer] = State.IN_FLIGHT;
            since[(int) offer] = now;
        }
        checkCounters(sim, rel && relState == State.FREE, rel && relState == State.QUARANTINED,
                rel && relError && relState == State.IN_FLIGHT, expect >= 0);
    }

    /** what the offer register must show this cycle: a tag, -1 for nothing, UNKNOWN when it held its offer */
    private static final int UNKNOWN = -2;
    private int nextOffer = UNKNOWN;

    /** The DUT's counters now, against the model's counts before this cycle's events. */
    private void checkCounters(Simulator sim, boolean spur, boolean lateNow, boolean errNow, boolean toNow) {
        checkEqual("spuriousReleases", spurious - (spur ? 1 : 0), sim.peek(dut.spuriousReleases));
        checkEqual("lateCompletions", late - (lateNow ? 1 : 0), sim.peek(dut.lateCompletions));
        checkEqual("errorCompletions", errors - (errNow ? 1 : 0), sim.peek(dut.errorCompletions));
        checkEqual("timeouts", timeouts - (toNow ? 1 : 0), sim.peek(dut.timeouts));
    }

    private BigInteger bitmap(State s) {
        BigInteger b = BigInteger.ZERO;
        for (int t = 0; t < tags; t++) {
            if (state[t] == s) {
                b = b.setBit(t);
            }
        }
        return b;
    }

    private int count(State s) {
        int n = 0;
        for (State x : state) {
            n += x == s ? 1 : 0;
        }
        return n;
    }

    /** Every tag free (in the model, which matched the DUT the cycle before). */
    boolean allFree() {
        return count(State.FREE) == tags;
    }

    @Override
    protected void finish() {
        if (!allFree()) {
            throw fail("at the end " + (tags - count(State.FREE)) + " tags are not free: in flight " + bitmap(State.IN_FLIGHT).toString(16)
                    + ", quarantined " + bitmap(State.QUARANTINED).toString(16));
        }
        checkEqual("freeCount at the end", (long) tags, sim().peek(dut.freeCount));
    }

    @Override
    public List<String> describeState() {
        List<String> l = new ArrayList<>();
        if (!allFree()) {
            l.add(count(State.IN_FLIGHT) + " in flight, " + count(State.QUARANTINED) + " quarantined");
        }
        return l;
    }

    long grants() {
        return grants;
    }

    long releases() {
        return releases;
    }

    long errors() {
        return errors;
    }

    long late() {
        return late;
    }

    long spurious() {
        return spurious;
    }

    long timeouts() {
        return timeouts;
    }
}
