package org.flitkit.fabric;

/**
 * A stream in a {@link Fabric} with at least one end on a chip's port: a {@link CableChannel} between two
 * chips' ready/valid ports, a {@link WireChannel} between two chips' wires, a {@link Source} from a host into a
 * chip or a {@link Sink} from a chip to a host.
 * Each cycle a channel first drives the pins it owns, then (after the chips settled) moves the flits
 * whose handshake completed, then says when it next has something to do.
 */
public abstract sealed class Channel permits CableChannel, WireChannel, Source, Sink {
    final Fabric fabric;
    final String name;
    final int index;
    /** the next cycle at which the channel must be processed even if no chip on it is evaluated */
    long wake;

    Channel(Fabric fabric, String name, int index) {
        this.fabric = fabric;
        this.name = name;
        this.index = index;
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    /** Sets the pins this channel drives for cycle {@code t}. */
    abstract void drive(long t);

    /** Completes the handshakes of cycle {@code t} (the chips have been sampled). */
    abstract void transfer(long t);

    /**
     * After cycle {@code t}: the first later cycle at which {@link #drive} or {@link #transfer} would do
     * something without any chip on the channel being evaluated, or {@link Host#NEVER}.
     */
    abstract long nextWake(long t);

    /** The chips this channel touches. */
    abstract Chip[] chips();
}
