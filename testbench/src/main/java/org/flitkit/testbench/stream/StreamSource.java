package org.flitkit.testbench.stream;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Hex;

/**
 * Drives a stream input of the design: presents queued beats on {@code valid}/{@code bits} and holds
 * each one until the design takes it ({@code ready} at a clock edge). Between beats a {@link Throttle}
 * inserts random idle cycles. Beats come from {@link #send} or, endlessly, from a
 * {@link #generate generator} until {@link #stop()}. A timeout lists what it still holds
 * ({@link #describeState()}).
 */
public final class StreamSource extends Component {
    /** At most this many queued beats are listed by {@link #describeState()}. */
    public static final int DESCRIBED_BEATS = 3;

    private final StreamPort port;
    private final ArrayDeque<BigInteger> queue = new ArrayDeque<>();
    private Throttle throttle = Throttle.NONE;
    private Supplier<BigInteger> generator;
    private BigInteger current;
    /** what this source last drove on valid (valid until taken, then until the next drive) */
    private boolean valid;
    private long offeredSince;
    private long sent;

    public StreamSource(String name, StreamPort port) {
        super(name);
        this.port = port;
    }

    /** Random valid gaps: before presenting a beat, wait for the throttle to allow it. */
    public StreamSource gaps(Throttle t) {
        throttle = t;
        return this;
    }

    /** Queues one beat. */
    public void send(BigInteger beat) {
        queue.add(beat);
    }

    public void send(long beat) {
        send(BigInteger.valueOf(beat));
    }

    /** Takes beats from {@code next} whenever the queue is empty, until {@link #stop()}. */
    public StreamSource generate(Supplier<BigInteger> next) {
        generator = next;
        return this;
    }

    /** Stops the generator; beats already drawn or queued are still sent. */
    public void stop() {
        generator = null;
    }

    /** Nothing queued, nothing on the wires, no generator. */
    public boolean idle() {
        return current == null && queue.isEmpty() && generator == null;
    }

    /** Beats the design has accepted. */
    public long sent() {
        return sent;
    }

    @Override
    protected void reset() {
        valid = false; // a beat on the wires but not taken is offered again after reset
        sim().poke(port.valid(), 0);
    }

    @Override
    protected void drive() {
        if (valid && current != null) {
            return; // an offered beat stays on the wires until taken
        }
        if (current == null) {
            current = !queue.isEmpty() ? queue.poll() : generator != null ? generator.get() : null;
        }
        boolean offer = current != null && throttle.allow(rng(), cycle());
        if (offer) {
            port.pokeBits(sim(), current);
            offeredSince = cycle();
        }
        setValid(offer);
    }

    @Override
    protected void sample() {
        if (valid && current != null && sim().peek(port.ready()) != 0) {
            sent++;
            current = null; // taken at this edge; the next drive moves on
        }
    }

    /** The beats not taken yet, the one on the wires first (with the cycle it was offered since). */
    @Override
    public List<String> describeState() {
        if (idle()) {
            return List.of();
        }
        List<String> waiting = new ArrayList<>();
        if (current != null) {
            waiting.add(Hex.of(current, port.width()) + (valid ? " (offered since cycle " + offeredSince + ")" : ""));
        }
        queue.forEach(b -> waiting.add(Hex.of(b, port.width())));
        String summary = waiting.size() + " beat(s) not taken" + (generator != null ? ", generator running" : "")
                + (waiting.isEmpty() ? "" : ":");
        return describe(summary, waiting, DESCRIBED_BEATS, s -> s);
    }

    private void setValid(boolean v) {
        if (v != valid) {
            valid = v;
            sim().poke(port.valid(), v ? 1 : 0);
        }
    }
}
