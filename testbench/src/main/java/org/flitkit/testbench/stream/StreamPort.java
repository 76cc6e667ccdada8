package org.flitkit.testbench.stream;

import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Data;

/**
 * The three signals of a valid/ready stream port of the top module: {@code valid} and {@code bits}
 * flow with the data, {@code ready} against it. A beat transfers on a clock edge where both valid and
 * ready are high; once valid is raised, valid and bits must hold until that happens.
 */
public record StreamPort(String name, Bits valid, Bits ready, Bits bits) {
    public StreamPort {
        if (valid.width() != 1 || ready.width() != 1) {
            throw new IllegalArgumentException("stream " + name + ": valid and ready must be 1 bit wide");
        }
    }

    /** From a stream bundle with fields {@code valid}, {@code ready} and {@code bits} (Decoupled-style). */
    public static StreamPort of(Bundle stream) {
        return new StreamPort(pathOf(stream), ground(stream, "valid"), ground(stream, "ready"), ground(stream, "bits"));
    }

    public int width() {
        return bits.width();
    }

    private static Bits ground(Bundle b, String field) {
        Data d = b.get(field);
        if (!(d instanceof Bits g)) {
            throw new IllegalArgumentException("stream field '" + field + "' of " + pathOf(b)
                    + " must be a ground signal (UInt/Bool), not " + d.getClass().getSimpleName()
                    + "; build the StreamPort from its signals instead");
        }
        return g;
    }

    private static String pathOf(Bundle b) {
        String v = b.get("valid").path();
        return v.endsWith("_valid") ? v.substring(0, v.length() - "_valid".length()) : v;
    }
}
