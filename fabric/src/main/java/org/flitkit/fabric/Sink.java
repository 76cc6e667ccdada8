package org.flitkit.fabric;

/**
 * A host's end of a chip's ready/valid output: takes flits while {@link #ready} (the default) and hands
 * each one, with the cycle it left the chip, to its listener. The listener runs after the chips stepped,
 * in a fixed order, so it may send flits or change readiness for the next cycle.
 */
public final class Sink extends Channel {
    /** Receives a flit; {@code flit} is only valid during the call. */
    @FunctionalInterface
    public interface Listener {
        void accept(long cycle, long[] flit);
    }

    final ChipOutput from;
    private final Listener listener;
    private boolean ready = true;

    Sink(Fabric fabric, String name, int index, ChipOutput from, Listener listener) {
        super(fabric, name, index);
        this.from = from;
        this.listener = listener;
    }

    /** Whether the host takes flits (backpressure when false); applies from the next cycle the inputs are set. */
    public void ready(boolean r) {
        if (r != ready) {
            ready = r;
            fabric.schedule(this);
        }
    }

    @Override
    void drive(long t) {
        from.setReady(ready);
    }

    @Override
    void transfer(long t) {
        if (from.fires()) {
            fabric.observe(t, this, false, from.flit);
            listener.accept(t, from.flit);
        }
    }

    @Override
    long nextWake(long t) {
        return ready != from.ready() || from.fires() ? t + 1 : Host.NEVER;
    }

    @Override
    Chip[] chips() {
        return new Chip[] {from.chip};
    }
}
