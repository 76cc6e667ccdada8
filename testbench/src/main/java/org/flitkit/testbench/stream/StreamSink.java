package org.flitkit.testbench.stream;

import org.flitkit.testbench.Component;

/**
 * Drives {@code ready} of a stream output of the design, with random backpressure from a
 * {@link Throttle}. Pair it with a {@link StreamMonitor} on the same port to collect the beats.
 */
public final class StreamSink extends Component {
    private final StreamPort port;
    private Throttle throttle = Throttle.NONE;
    private int ready = -1;

    public StreamSink(String name, StreamPort port) {
        super(name);
        this.port = port;
    }

    /** Random backpressure: ready only in cycles the throttle allows. */
    public StreamSink backpressure(Throttle t) {
        throttle = t;
        return this;
    }

    @Override
    protected void reset() {
        setReady(0);
    }

    @Override
    protected void drive() {
        setReady(throttle.allow(rng(), cycle()) ? 1 : 0);
    }

    private void setReady(int r) {
        if (r != ready) {
            ready = r;
            sim().poke(port.ready(), r);
        }
    }
}
