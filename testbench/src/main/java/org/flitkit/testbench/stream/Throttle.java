package org.flitkit.testbench.stream;

import org.flitkit.testbench.Rng;

/**
 * Decides, cycle by cycle, whether a stream driver may act: a source whether to present its next beat
 * (random valid gaps), a sink whether to be ready (random backpressure). A lambda works too:
 * {@code (rng, cycle) -> cycle % 4 != 0}.
 */
@FunctionalInterface
public interface Throttle {
    /** Never holds back: valid whenever there is data, ready every cycle. */
    Throttle NONE = (rng, cycle) -> true;

    boolean allow(Rng rng, long cycle);

    /** Allows in each cycle independently with probability {@code p}. */
    static Throttle random(double p) {
        if (!(p > 0 && p <= 1)) {
            throw new IllegalArgumentException("probability must be in (0, 1], got " + p);
        }
        return p == 1 ? NONE : (rng, cycle) -> rng.chance(p);
    }

    /** Holds back with probability {@code p} in each cycle (e.g. {@code backpressure(0.3)}: ready 70 % of cycles). */
    static Throttle busy(double p) {
        if (!(p >= 0 && p < 1)) {
            throw new IllegalArgumentException("busy probability must be in [0, 1), got " + p);
        }
        return random(1 - p);
    }
}
