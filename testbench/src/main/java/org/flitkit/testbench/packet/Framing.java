package org.flitkit.testbench.packet;

import java.math.BigInteger;
import java.util.List;
import java.util.function.ToIntFunction;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.sim.Simulator;

/**
 * Where one packet ends in a stream of beats, for {@link FrameMonitor}: a fixed number of beats, a
 * marker bit inside the beat, a side-band {@code last} signal, or a length carried in the header.
 */
@FunctionalInterface
public interface Framing {
    /**
     * Whether {@code beats}, the beats of the current packet so far with the newest last, make a whole
     * packet. Called at the handshake of the newest beat, so {@code sim} still shows that beat's
     * signals. Throws {@link IllegalArgumentException} for beats no packet can start with.
     */
    boolean complete(List<BigInteger> beats, Simulator sim);

    /** Every packet is {@code n} beats (TH-2: 4 flits; 40 relay-station beats). */
    static Framing fixed(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a packet needs at least one beat, got " + n);
        }
        return (beats, sim) -> beats.size() == n;
    }

    /** Bit {@code bit} of a beat is set in the last beat of each packet (an in-band end marker). */
    static Framing lastBit(int bit) {
        if (bit < 0) {
            throw new IllegalArgumentException("bit index must not be negative, got " + bit);
        }
        return (beats, sim) -> beats.get(beats.size() - 1).testBit(bit);
    }

    /** The 1-bit signal {@code last} (next to the stream, like AXI-Stream TLAST) is high with the last beat. */
    static Framing last(Bits last) {
        if (last.width() != 1) {
            throw new IllegalArgumentException(last.path() + " is " + last.width() + " bits wide; a last signal is 1 bit");
        }
        return (beats, sim) -> sim.peek(last) != 0;
    }

    /**
     * The first {@code headerBeats} beats say how many beats the whole packet has, header included:
     * {@code totalBeats} reads that from them.
     */
    static Framing length(int headerBeats, ToIntFunction<List<BigInteger>> totalBeats) {
        if (headerBeats < 1) {
            throw new IllegalArgumentException("a header needs at least one beat, got " + headerBeats);
        }
        return (beats, sim) -> {
            if (beats.size() < headerBeats) {
                return false;
            }
            int total = totalBeats.applyAsInt(beats.subList(0, headerBeats));
            if (total < headerBeats) {
                throw new IllegalArgumentException("the header gives a length of " + total + " beat(s), less than its own "
                        + headerBeats);
            }
            return beats.size() == total;
        };
    }
}
