package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import java.util.function.Function;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Data;

/**
 * How long an arbiter keeps its grant so a multi-beat packet passes uninterrupted: {@link #none()}
 * (every beat is a packet), {@link #beats(int)} (packets of a fixed beat count) or {@link #until}
 * (a predicate on the beat marks the last one). A custom lock builds its "last beat" condition
 * inside the arbiter from the arbiter's output stream.
 */
@FunctionalInterface
public interface Lock<T extends Data> {
    /** Builds, in the arbiter, the condition "{@code out} carries the last beat of a packet". */
    Bool lastBeat(Decoupled<T> out);

    /** No packets: the arbiter may switch after every beat. */
    static <T extends Data> Lock<T> none() {
        return out -> TRUE();
    }

    /** Packets of exactly {@code n} beats (counted at the output). */
    static <T extends Data> Lock<T> beats(int n) {
        if (n == 1) {
            return none();
        }
        return out -> {
            Counter beat = new Counter(n).named("lockBeat");
            when(out.fire(), beat::inc);
            return beat.isLast();
        };
    }

    /** Packets end with the beat for which {@code isLast} is high (e.g. {@code f -> f.last}). */
    static <T extends Data> Lock<T> until(Function<? super T, Bool> isLast) {
        return out -> isLast.apply(out.bits);
    }
}
