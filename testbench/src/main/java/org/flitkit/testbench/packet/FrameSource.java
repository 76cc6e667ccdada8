package org.flitkit.testbench.packet;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.List;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.stream.StreamPort;
import org.flitkit.testbench.stream.StreamSource;
import org.flitkit.testbench.stream.Throttle;

/**
 * Drives whole packets into a stream input: each packet is encoded into beats by a {@link PacketCodec}
 * and handed to a {@link StreamSource} (its part, named {@code NAME.beats}) only when the previous
 * packet's last beat has been taken, so random idle cycles can go between beats ({@link #beatGaps}) and,
 * separately, between packets ({@link #packetGaps}). Without gaps packets follow back to back.
 *
 * @param <P> the packet type
 */
public final class FrameSource<P> extends Component {
    /** At most this many queued packets are listed by {@link #describeState()}. */
    public static final int DESCRIBED_PACKETS = 3;

    private final StreamSource beats;
    private final PacketCodec<P> codec;
    private final ArrayDeque<P> queue = new ArrayDeque<>();
    private Throttle packetGaps = Throttle.NONE;
    /** the packet whose beats the beat source holds (the last one started) */
    private P current;
    private int currentBeats;
    private long started;

    public FrameSource(String name, StreamPort port, PacketCodec<P> codec) {
        super(name);
        this.beats = new StreamSource(name + ".beats", port);
        this.codec = codec;
    }

    /** Random idle cycles before each beat (including the first of a packet). */
    public FrameSource<P> beatGaps(Throttle t) {
        beats.gaps(t);
        return this;
    }

    /** Random idle cycles between packets: the next packet starts only in a cycle {@code t} allows. */
    public FrameSource<P> packetGaps(Throttle t) {
        packetGaps = t;
        return this;
    }

    /** Queues one packet. */
    public void send(P packet) {
        queue.add(packet);
    }

    /** No packet queued or in progress. */
    public boolean idle() {
        return queue.isEmpty() && beats.idle();
    }

    /** Packets whose every beat the design has taken. */
    public long sent() {
        return started - (beats.idle() ? 0 : 1);
    }

    /** The beat-level source underneath (its counts, or to look at its state). */
    public StreamSource beats() {
        return beats;
    }

    @Override
    protected List<Component> parts() {
        return List.of(beats);
    }

    /** Runs before the beat source in each cycle, so a packet can start in the cycle after the previous one's last beat. */
    @Override
    protected void drive() {
        if (beats.idle() && !queue.isEmpty() && packetGaps.allow(rng(), cycle())) {
            current = queue.poll();
            List<BigInteger> b = codec.toBeats(current);
            if (b.isEmpty()) {
                throw new IllegalArgumentException(name() + ": the codec gave no beats for packet " + current);
            }
            currentBeats = b.size();
            started++;
            b.forEach(beats::send);
        }
    }

    /** The packet in progress (the beat source shows its beats) and the packets queued behind it. */
    @Override
    public List<String> describeState() {
        if (idle()) {
            return List.of();
        }
        String inProgress = beats.idle() ? "" : ", one in progress (" + currentBeats + " beats): " + current;
        return describe(queue.size() + " packet(s) queued" + inProgress + (queue.isEmpty() ? "" : "; queued:"), queue,
                DESCRIBED_PACKETS, String::valueOf);
    }
}
