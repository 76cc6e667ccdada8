package org.flitkit.testbench;

import java.util.Map;

/**
 * Reading a scenario's own options ({@code ./hdl run NAME --loss 0.2}), given as option name (no dashes) to text:
 * unknown names and values that are not numbers are refused with a message naming the option, so every scenario
 * says the same thing the same way. README, "The ./hdl command".
 */
public final class ScenarioOptions {
    private ScenarioOptions() {
    }

    /** Refuses a name of {@code values} that {@code options} (name to help text) does not have. */
    public static void requireKnown(String scenario, Map<String, String> values, Map<String, String> options) {
        for (String k : values.keySet()) {
            if (!options.containsKey(k)) {
                throw new IllegalArgumentException("unknown option --" + k + "; " + scenario + " takes --" + String.join(", --", options.keySet()));
            }
        }
    }

    /** Option {@code k} as a whole number ({@code 100_000} allowed), {@code dflt} when it is not given. */
    public static long integer(Map<String, String> values, String k, long dflt) {
        String s = values.get(k);
        try {
            return s == null ? dflt : Long.parseLong(s.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + k + " needs an integer, got '" + s + "'");
        }
    }

    /** Option {@code k} as an int (see {@link #integer}), refused when it does not fit one. */
    public static int smallInteger(Map<String, String> values, String k, int dflt) {
        long v = integer(values, k, dflt);
        if (v != (int) v) {
            throw new IllegalArgumentException("--" + k + " is out of range, got '" + values.get(k) + "'");
        }
        return (int) v;
    }

    /** Option {@code k} as a number, {@code dflt} when it is not given. */
    public static double number(Map<String, String> values, String k, double dflt) {
        String s = values.get(k);
        try {
            return s == null ? dflt : Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + k + " needs a number, got '" + s + "'");
        }
    }
}
