package org.flitkit.testbench.packet;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Hex;
import org.flitkit.testbench.stream.StreamMonitor;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSource;

/**
 * Watches a stream port and delivers whole packets: the beats taken (seen by a {@link StreamMonitor},
 * its part named {@code NAME.beats}, which also checks the valid/ready rule) are collected until the
 * {@link Framing} says the packet is complete, then decoded by a {@link PacketCodec} and passed to the
 * subscribers, typically a scoreboard. A packet left unfinished fails {@link #finish()}.
 *
 * @param <P> the packet type
 */
public final class FrameMonitor<P> extends Component {
    private final StreamPort port;
    private final StreamMonitor beats;
    private final Framing framing;
    private final PacketCodec<P> codec;
    private final List<Consumer<P>> subscribers = new ArrayList<>();
    private final List<BigInteger> partial = new ArrayList<>();
    private int maxBeats = Integer.MAX_VALUE;
    private long startedAt;
    private long packets;

    public FrameMonitor(String name, StreamPort port, Framing framing, PacketCodec<P> codec) {
        super(name);
        this.port = port;
        this.framing = framing;
        this.codec = codec;
        this.beats = new StreamMonitor(name + ".beats", port).subscribe(this::beat);
    }

    /** Calls {@code s} with every whole packet, in order, in the cycle its last beat is taken. */
    public FrameMonitor<P> subscribe(Consumer<? super P> s) {
        subscribers.add(s::accept);
        return this;
    }

    /** Fails when a packet grows beyond {@code n} beats (an end marker that never comes). */
    public FrameMonitor<P> maxBeats(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a packet needs at least one beat, got " + n);
        }
        maxBeats = n;
        return this;
    }

    /** Checks the beat hold rule in every cycle of a stall ({@link StreamMonitor#checkHoldEveryCycle()}). */
    public FrameMonitor<P> checkHoldEveryCycle() {
        beats.checkHoldEveryCycle();
        return this;
    }

    /** Whole packets seen so far. */
    public long packets() {
        return packets;
    }

    /** The beat-level monitor underneath (beat count, protocol check). */
    public StreamMonitor beats() {
        return beats;
    }

    @Override
    protected List<Component> parts() {
        return List.of(beats);
    }

    @Override
    protected void reset() {
        partial.clear();
    }

    private void beat(BigInteger beat) {
        if (partial.isEmpty()) {
            startedAt = cycle();
        }
        partial.add(beat);
        boolean whole;
        try {
            whole = framing.complete(partial, sim());
        } catch (IllegalArgumentException e) {
            throw fail(port.name() + ": cannot frame the packet started at cycle " + startedAt + ": " + e.getMessage() + "\n  beats: "
                    + hex(partial));
        }
        if (!whole) {
            if (partial.size() >= maxBeats) {
                throw fail(port.name() + ": packet started at cycle " + startedAt + " has " + partial.size()
                        + " beats and has not ended (at most " + maxBeats + ")");
            }
            return;
        }
        List<BigInteger> frame = List.copyOf(partial);
        partial.clear();
        P packet;
        try {
            packet = codec.fromBeats(frame);
        } catch (IllegalArgumentException e) {
            throw fail(port.name() + ": the " + frame.size() + " beat(s) from cycle " + startedAt + " are not a packet: " + e.getMessage()
                    + "\n  beats: " + hex(frame));
        }
        packets++;
        for (Consumer<P> s : subscribers) {
            s.accept(packet);
        }
    }

    @Override
    protected void finish() {
        if (!partial.isEmpty()) {
            throw fail(port.name() + ": a packet started at cycle " + startedAt + " never ended; its " + partial.size()
                    + " beat(s): " + hex(partial));
        }
    }

    /** The beats of an unfinished packet. */
    @Override
    public List<String> describeState() {
        if (partial.isEmpty()) {
            return List.of();
        }
        return describe(partial.size() + " beat(s) of a packet started at cycle " + startedAt + ", not ended yet:", partial,
                StreamSource.DESCRIBED_BEATS, b -> Hex.of(b, port.width()));
    }

    private String hex(List<BigInteger> beats) {
        return String.join(" ", beats.stream().map(b -> Hex.of(b, port.width())).toList());
    }
}
