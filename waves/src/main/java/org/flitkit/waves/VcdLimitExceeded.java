package org.flitkit.waves;

import java.util.OptionalLong;

/**
 * A {@link VcdWriter} grew past the byte limit it was given ({@link VcdWriter#limit}) and stopped
 * dumping. The file on disk is complete and valid up to {@link #time()} (exclusive); later values are
 * dropped, so the simulation can still be closed down normally.
 */
public final class VcdLimitExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final long limit;
    private final long written;
    private final long time;
    private final Timescale timescale;
    private final long cycle;

    VcdLimitExceeded(long limit, long written, long time, Timescale timescale, long clockPeriod) {
        super("VCD output passed its limit of " + limit + " bytes (" + written + " written) at time " + time * timescale.magnitude()
                + timescale.unit() + (clockPeriod > 0 ? ", cycle " + time / clockPeriod : ""));
        this.limit = limit;
        this.written = written;
        this.time = time;
        this.timescale = timescale;
        this.cycle = clockPeriod > 0 ? time / clockPeriod : -1;
    }

    /** The limit in bytes. */
    public long limit() {
        return limit;
    }

    /** Bytes in the file when the dump stopped (at most one timestamp's changes above the limit). */
    public long written() {
        return written;
    }

    /** The first timestamp, in timescale ticks, that is not in the file. */
    public long time() {
        return time;
    }

    public Timescale timescale() {
        return timescale;
    }

    /** The clock cycle {@link #time()} falls in, when the writer was told the clock period ({@link VcdWriter#clockPeriod}). */
    public OptionalLong cycle() {
        return cycle >= 0 ? OptionalLong.of(cycle) : OptionalLong.empty();
    }
}
