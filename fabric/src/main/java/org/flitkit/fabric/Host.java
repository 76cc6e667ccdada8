package org.flitkit.fabric;

/**
 * A host-side Java model in a {@link Fabric} (a server, a traffic generator, a monitor): it acts at the
 * cycles it asks for, feeding {@link Source}s, setting {@link Sink} readiness and poking or peeking chip
 * pins through the fabric; it reacts to flits through {@link Sink} listeners. Reporting its next event
 * is what lets time jump over cycles where nothing happens.
 */
public interface Host {
    /** No next event: the host only reacts to flits. */
    long NEVER = Long.MAX_VALUE;

    /**
     * The earliest cycle at which {@link #tick} must run ({@link #NEVER} for none). Asked again after
     * every tick and after every flit delivered to one of the host's sinks.
     */
    long nextEvent();

    /**
     * Runs at cycle {@code cycle} (>= {@link #nextEvent()}), after the links drove their pins and before
     * the chips are evaluated: pokes made here are the inputs of this cycle, peeks see this cycle.
     */
    void tick(long cycle);
}
