package org.flitkit.fabric;

/**
 * A {@link Cable} between two chips simulated separately (one direction, between two simulators of a
 * {@link Fabric}, in Java): a pipeline of {@code latency} cycles with
 * credit-based flow control. The sender sees {@code ready} while it holds credits; a flit taken at cycle
 * t is offered to the receiver from t + latency; a credit comes back latency cycles after the receiver
 * takes the flit. The receiver buffer holds {@code depth} flits, which is also the initial credit count
 * (default 2 latency + 2: full rate). An optional {@link FlitOp} edits each flit as it enters the cable
 * (what a switch between the two ports would do). {@link #options} takes the hardware cable's
 * {@link CableOptions}. docs/cable.md, "The fabric-level channel".
 */
public final class CableChannel extends Channel {
    /** Edits a flit (as 64-bit limbs, least significant first) in place. */
    @FunctionalInterface
    public interface FlitOp {
        void apply(long[] flit);
    }

    final ChipOutput from;
    final ChipInput to;
    private int latency = 1;
    private int depth = -1;
    private FlitOp op;
    // flits on the cable and in the receive buffer, oldest first: a ring of depth entries
    private long[][] flits;
    private long[] arrive;
    private int head;
    private int size;
    private int credits;
    // credit return times, oldest first
    private long[] creditAt;
    private int creditHead;
    private int creditSize;

    CableChannel(Fabric fabric, String name, int index, ChipOutput from, ChipInput to) {
        super(fabric, name, index);
        this.from = from;
        this.to = to;
    }

    /** Cycles per direction, at least 1 (default 1). */
    public CableChannel latency(int cycles) {
        fabric.checkNotStarted("set a link's latency");
        if (cycles < 1) {
            throw new IllegalArgumentException("link " + name + ": latency must be at least 1 cycle (chips of one cycle are evaluated independently), got " + cycles);
        }
        latency = cycles;
        return this;
    }

    /** Receive buffer size = initial credits (default 2 latency + 2). */
    public CableChannel depth(int flits) {
        fabric.checkNotStarted("set a link's depth");
        if (flits < 1) {
            throw new IllegalArgumentException("link " + name + ": depth must be at least 1 flit, got " + flits);
        }
        depth = flits;
        return this;
    }

    /**
     * Latency and depth from a credit cable's options: its credits must come back over the latency (the
     * channel's only credit loop, {@link CableOptions#creditLoop}); the width is the ports' own.
     */
    public CableChannel options(CableOptions o) {
        if (!o.credited()) {
            throw new IllegalArgumentException("link " + name + ": a cable channel has credit flow control, got a lane cable's options");
        }
        if (o.creditLatency() != o.latency()) {
            throw new IllegalArgumentException("link " + name + ": a cable channel returns credits over its latency ("
                    + o.latency() + " cycles), got credit latency " + o.creditLatency());
        }
        if (o.loss() != 0) {
            throw new IllegalArgumentException("link " + name + ": a cable channel does not drop flits, got loss " + o.loss());
        }
        return latency(o.latency()).depth(o.depth());
    }

    /** The channel's options (a credit cable of {@code width} bits, credits back over the latency). */
    public CableOptions options(int width) {
        return CableOptions.creditLoop(width, latency).withDepth(depth());
    }

    /** Edits every flit as it enters the cable. */
    public CableChannel map(FlitOp op) {
        fabric.checkNotStarted("set a link's flit operation");
        this.op = op;
        return this;
    }

    public int latency() {
        return latency;
    }

    public int depth() {
        return depth > 0 ? depth : 2 * latency + 2;
    }

    /** Flits on the cable or in the receive buffer. */
    public int inFlight() {
        return size;
    }

    void start() {
        int d = depth();
        flits = new long[d][from.flit.length];
        arrive = new long[d];
        creditAt = new long[d];
        credits = d;
    }

    @Override
    void drive(long t) {
        while (creditSize > 0 && creditAt[creditHead] <= t) {
            credits++;
            creditHead = (creditHead + 1) % creditAt.length;
            creditSize--;
        }
        from.setReady(credits > 0);
        if (size > 0 && arrive[head] <= t) {
            to.offer(flits[head]);
        } else {
            to.idle();
        }
    }

    @Override
    void transfer(long t) {
        if (to.fires()) {
            fabric.observe(t, this, true, flits[head]);
            head = (head + 1) % flits.length;
            size--;
            creditAt[(creditHead + creditSize) % creditAt.length] = t + latency;
            creditSize++;
        }
        if (from.fires()) {
            int slot = (head + size) % flits.length;
            System.arraycopy(from.flit, 0, flits[slot], 0, from.flit.length);
            fabric.observe(t, this, false, flits[slot]);
            if (op != null) {
                op.apply(flits[slot]);
            }
            arrive[slot] = t + latency;
            size++;
            credits--;
        }
    }

    @Override
    long nextWake(long t) {
        long next = Host.NEVER;
        if (creditSize > 0) {
            next = creditAt[creditHead];
        }
        boolean ready = from.ready();
        if (ready != credits > 0 || from.offered && credits > 0) {
            return t + 1;
        }
        if (size > 0 && arrive[head] <= t + 1) {
            // the receiver must see the new head, or takes it next cycle
            if (!to.offering(flits[head]) || to.accepting) {
                return t + 1;
            }
        } else if (to.validNow()) {
            // it still sees the flit it took
            return t + 1;
        } else if (size > 0) {
            next = Math.min(next, arrive[head]);
        }
        return next;
    }

    @Override
    Chip[] chips() {
        return new Chip[] {from.chip, to.chip};
    }
}
