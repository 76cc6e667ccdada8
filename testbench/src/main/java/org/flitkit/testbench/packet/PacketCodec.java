package org.flitkit.testbench.packet;

import java.math.BigInteger;
import java.util.List;
import java.util.function.Function;

/**
 * Turns a typed packet into the beats that carry it on a stream and back, for {@link FrameSource} and
 * {@link FrameMonitor}. Beats are unsigned numbers packed like {@code StreamPort} payloads.
 *
 * @param <P> the packet type the test works with; compared with {@code equals} by scoreboards
 */
public interface PacketCodec<P> {
    /** The beats of {@code packet}, first beat first. */
    List<BigInteger> toBeats(P packet);

    /** The packet a whole frame of beats carries; throws {@link IllegalArgumentException} if it carries none. */
    P fromBeats(List<BigInteger> beats);

    /** Packets as plain lists of beats (no decoding). */
    static PacketCodec<List<BigInteger>> beats() {
        return of(List::copyOf, List::copyOf);
    }

    /** A codec from two functions, e.g. {@code PacketCodec.of(Flits::split, Flits::join)}. */
    static <P> PacketCodec<P> of(Function<? super P, List<BigInteger>> toBeats, Function<List<BigInteger>, ? extends P> fromBeats) {
        return new PacketCodec<>() {
            @Override
            public List<BigInteger> toBeats(P packet) {
                return toBeats.apply(packet);
            }

            @Override
            public P fromBeats(List<BigInteger> beats) {
                return fromBeats.apply(beats);
            }
        };
    }
}
