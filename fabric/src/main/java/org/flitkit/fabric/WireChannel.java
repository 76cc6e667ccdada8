package org.flitkit.fabric;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.flitkit.hdl.Bits;

/**
 * A wire-level cable direction between two chips of a {@link Fabric}: whatever a chip's output carries in cycle t
 * (a link layer's frame on its lanes) its peer's input carries in cycle t + latency, with seeded random bit
 * errors, bits stuck at zero (dead lanes) and cuts (all zeros). No flow control: the link layers at its ends do
 * that. Only changes travel: an idle link whose frames repeat costs nothing and lets both chips sleep.
 * docs/fabric.md, "Wire channels".
 */
public final class WireChannel extends Channel {
    final Chip from;
    final Bits out;
    final Chip to;
    final Bits in;
    private final int limbs;
    private int latency = 1;
    /** source values not yet delivered: {cycle they arrive, limbs...}, oldest first */
    private final ArrayDeque<long[]> changes = new ArrayDeque<>();
    /** the last value sampled at the source (null before the first sample), and the buffer the next one is read into */
    private long[] sampled;
    private long[] sampling;
    /** what the cable carries before errors, cuts and dead lanes; and what the destination sees */
    private final long[] clean;
    private final long[] delivered;
    private final long[] value;
    private boolean deliveredKnown;
    private boolean cut;
    private final long[] stuck;
    private double ber;
    private SplittableRandom errors;
    /** the next errored bit, counted over the bits carried since the first cycle ({@code Long.MAX_VALUE}: none) */
    private long nextError = Long.MAX_VALUE;
    private long firstCycle = -1;
    /** the value delivered this cycle had errors: the next cycle restores the clean value */
    private boolean erred;
    private long bitErrors;
    private long deliveredChanges;

    WireChannel(Fabric fabric, String name, int index, Chip from, Bits out, Chip to, Bits in) {
        super(fabric, name, index);
        this.from = from;
        this.out = out;
        this.to = to;
        this.in = in;
        this.limbs = (out.width() + 63) >>> 6;
        this.clean = new long[limbs];
        this.delivered = new long[limbs];
        this.value = new long[limbs];
        this.stuck = new long[limbs];
    }

    /** Cycles from output to input, at least 1 (default 1). */
    public WireChannel latency(int cycles) {
        fabric.checkNotStarted("set a wire's latency");
        if (cycles < 1) {
            throw new IllegalArgumentException("wire " + name + ": latency must be at least 1 cycle (chips of one cycle are evaluated independently), got "
                    + cycles);
        }
        latency = cycles;
        return this;
    }

    public int latency() {
        return latency;
    }

    /**
     * Each bit carried is flipped with probability {@code rate}, independently, from a generator seeded with {@code seed};
     * set while the fabric runs, from the next cycle on (a cable going bad).
     */
    public WireChannel bitErrors(double rate, long seed) {
        if (!(rate >= 0 && rate <= 0.5)) {
            throw new IllegalArgumentException("wire " + name + ": bit error rate must be in [0, 0.5], got " + rate);
        }
        ber = rate;
        errors = new SplittableRandom(seed);
        if (firstCycle >= 0) {
            // the bits carried so far are past: the first error falls in the next cycle or later
            nextError = drawError((fabric.now() + 1 - firstCycle) * out.width() - 1);
            fabric.schedule(this);
        }
        return this;
    }

    /** Bits errored so far. */
    public long bitErrors() {
        return bitErrors;
    }

    /** Times the destination's input changed: what the wire cost it in wake-ups. */
    public long changes() {
        return deliveredChanges;
    }

    /** Cuts the wire (the input sees zeros) or restores it, from the next cycle whose inputs are set. */
    public void cut(boolean on) {
        if (on != cut) {
            cut = on;
            fabric.schedule(this);
        }
    }

    /** Bits that read 0 whatever is sent (dead lanes), as limbs, least significant first; from the next cycle whose inputs are set. */
    public void stuckAtZero(long[] mask) {
        if (mask.length != limbs) {
            throw new IllegalArgumentException("wire " + name + ": a mask of " + limbs + " limbs is needed for " + out.width() + " bits, got " + mask.length);
        }
        System.arraycopy(mask, 0, stuck, 0, limbs);
        fabric.schedule(this);
    }

    /** Called while the source chip is evaluated in cycle {@code t}: a changed output travels. */
    void sample(long t) {
        if (sampling == null) {
            sampling = new long[limbs];
        }
        from.sim.peekInto(out, sampling);
        if (sampled == null || !Arrays.equals(sampling, sampled)) {
            long[] c = new long[limbs + 1];
            c[0] = t + latency;
            System.arraycopy(sampling, 0, c, 1, limbs);
            changes.addLast(c);
            long[] swap = sampled;
            sampled = sampling;
            sampling = swap;
        }
    }

    @Override
    void drive(long t) {
        if (firstCycle < 0) {
            firstCycle = t;
            nextError = drawError(-1);
        }
        while (!changes.isEmpty() && changes.peekFirst()[0] <= t) {
            System.arraycopy(changes.pollFirst(), 1, clean, 0, limbs);
        }
        long[] v = value;
        for (int i = 0; i < limbs; i++) {
            v[i] = cut ? 0 : clean[i] & ~stuck[i];
        }
        erred = false;
        int width = out.width();
        while (nextError != Long.MAX_VALUE && firstCycle + nextError / width <= t) {
            int bit = (int) (nextError % width);
            v[bit >>> 6] ^= 1L << (bit & 63);
            bitErrors++;
            erred = true;
            nextError = drawError(nextError);
        }
        if (!deliveredKnown || !Arrays.equals(v, delivered)) {
            to.wake();
            to.sim.poke(in, v);
            System.arraycopy(v, 0, delivered, 0, limbs);
            deliveredChanges++;
            deliveredKnown = true;
        }
    }

    /** The bit after {@code last} that the generator errs next (geometric gaps), or {@code Long.MAX_VALUE}. */
    private long drawError(long last) {
        if (ber == 0) {
            return Long.MAX_VALUE;
        }
        double u = errors.nextDouble();
        double gap = Math.floor(Math.log1p(-u) / Math.log1p(-ber));
        return gap >= Long.MAX_VALUE / 2 - last ? Long.MAX_VALUE : last + 1 + (long) gap;
    }

    @Override
    void transfer(long t) {
    }

    @Override
    long nextWake(long t) {
        long next = changes.isEmpty() ? Host.NEVER : Math.max(t + 1, changes.peekFirst()[0]);
        if (nextError != Long.MAX_VALUE) {
            next = Math.min(next, Math.max(t + 1, firstCycle + nextError / out.width()));
        }
        return erred ? t + 1 : next;
    }

    @Override
    Chip[] chips() {
        return new Chip[] {from, to};
    }
}
