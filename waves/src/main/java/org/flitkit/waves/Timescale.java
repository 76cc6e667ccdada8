package org.flitkit.waves;

import java.util.List;

/**
 * A VCD {@code $timescale}: magnitude 1, 10 or 100 and a unit from {@code s} to {@code fs}. The
 * standard allows nothing else, so validating here keeps bad headers out of every file written.
 *
 * @param magnitude 1, 10 or 100
 * @param unit one of {@code s ms us ns ps fs}
 */
public record Timescale(int magnitude, String unit) {
    private static final List<String> UNITS = List.of("s", "ms", "us", "ns", "ps", "fs");

    /** Validates the pair, so an illegal timescale fails at construction and not inside a viewer. */
    public Timescale {
        if (magnitude != 1 && magnitude != 10 && magnitude != 100) {
            throw new IllegalArgumentException("timescale magnitude must be 1, 10 or 100, got " + magnitude);
        }
        if (!UNITS.contains(unit)) {
            throw new IllegalArgumentException("timescale unit must be one of " + UNITS + ", got '" + unit + "'");
        }
    }

    /**
     * Picks the coarsest timescale of magnitude 1 whose tick divides half of {@code period}, so that
     * both clock edges land on integer timestamps: a 10 ns clock gives {@code 1ns}, a 7 ns clock
     * {@code 1ps} (half period 3.5 ns), a 2 us clock {@code 1us}.
     *
     * @throws IllegalArgumentException if the period is not positive or half of it is below 1 fs
     */
    public static Timescale forPeriod(long period, String unit) {
        if (period <= 0) {
            throw new IllegalArgumentException("clock period must be positive, got " + period);
        }
        int unitIndex = unitIndex(unit);
        if (period % 2 == 0) {
            return new Timescale(1, unit);
        }
        // An odd period has a half period ending in .5 units, which is whole in the next finer unit.
        if (unitIndex + 1 < UNITS.size()) {
            return new Timescale(1, UNITS.get(unitIndex + 1));
        }
        throw new IllegalArgumentException("half of " + period + unit + " is not a whole number of femtoseconds");
    }

    /** Parses a {@code $timescale} text such as {@code 1ns} or {@code 10 ps} (what {@link VcdReader#timescale()} returns). */
    public static Timescale parse(String text) {
        String t = text.strip();
        int digits = 0;
        while (digits < t.length() && Character.isDigit(t.charAt(digits))) {
            digits++;
        }
        if (digits == 0 || digits > 3) {
            throw new IllegalArgumentException("not a timescale: '" + text + "' (expected e.g. 1ns, 10ps, 100us)");
        }
        return new Timescale(Integer.parseInt(t.substring(0, digits)), t.substring(digits).strip());
    }

    /** Number of ticks of this timescale in {@code amount} of {@code unit}, exact or an exception. */
    public long ticks(long amount, String unit) {
        long fs = Math.multiplyExact(amount, femtos(1, unit));
        long tick = femtos(magnitude, this.unit);
        if (fs % tick != 0) {
            throw new IllegalArgumentException(amount + unit + " is not a whole number of " + this + " ticks");
        }
        return fs / tick;
    }

    /** The text used in the {@code $timescale} section, e.g. {@code 1ns}. */
    @Override
    public String toString() {
        return magnitude + unit;
    }

    private static long femtos(long amount, String unit) {
        long f = amount;
        for (int i = unitIndex(unit); i < UNITS.size() - 1; i++) {
            f = Math.multiplyExact(f, 1000);
        }
        return f;
    }

    private static int unitIndex(String unit) {
        int i = UNITS.indexOf(unit);
        if (i < 0) {
            throw new IllegalArgumentException("time unit must be one of " + UNITS + ", got '" + unit + "'");
        }
        return i;
    }
}
