package org.flitkit.fabric;

import java.util.ArrayDeque;

/**
 * A host's queue of flits into a chip's ready/valid input: the head flit is offered until the chip
 * takes it, then the next one, back to back. A host fills it with {@link #send} at any time; flits sent
 * during cycle t (in a tick, or in a sink listener after the chips stepped) are offered from the next
 * cycle the inputs are set.
 */
public final class Source extends Channel {
    final ChipInput to;
    private final ArrayDeque<long[]> queue = new ArrayDeque<>();

    Source(Fabric fabric, String name, int index, ChipInput to) {
        super(fabric, name, index);
        this.to = to;
    }

    /** Queues a copy of {@code flit} (64-bit limbs, least significant first). */
    public void send(long[] flit) {
        if (flit.length != to.bitsNow().length) {
            throw new IllegalArgumentException("source " + name + ": " + to.bits.path() + " is " + to.bits.width() + " bits = "
                    + to.bitsNow().length + " limbs, got " + flit.length);
        }
        queue.add(flit.clone());
        fabric.schedule(this);
    }

    /** Flits not yet taken by the chip. */
    public int pending() {
        return queue.size();
    }

    public boolean idle() {
        return queue.isEmpty();
    }

    @Override
    void drive(long t) {
        if (queue.isEmpty()) {
            to.idle();
        } else {
            to.offer(queue.peek());
        }
    }

    @Override
    void transfer(long t) {
        if (to.fires()) {
            fabric.observe(t, this, true, queue.poll());
        }
    }

    @Override
    long nextWake(long t) {
        if (queue.isEmpty()) {
            return to.validNow() ? t + 1 : Host.NEVER;
        }
        return !to.offering(queue.peek()) || to.accepting ? t + 1 : Host.NEVER;
    }

    @Override
    Chip[] chips() {
        return new Chip[] {to.chip};
    }
}
