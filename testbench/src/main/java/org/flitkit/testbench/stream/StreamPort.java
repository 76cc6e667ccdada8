package org.flitkit.testbench.stream;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.sim.Simulator;

/**
 * A valid/ready stream port of the top module: {@code valid} and the payload flow with the data,
 * {@code ready} against it. A beat transfers on a clock edge where both valid and ready are high; once
 * valid is raised, valid and the payload must hold until that happens.
 *
 * <p>The payload is handled as one unsigned number: a single signal as is, a bundle or vector packed
 * like {@code Bundle.asUInt()} (first field in the most significant bits).
 */
public final class StreamPort {
    private final String name;
    private final Bits valid;
    private final Bits ready;
    private final List<Bits> fields;
    private final int width;

    public StreamPort(String name, Bits valid, Bits ready, Data payload) {
        if (valid.width() != 1 || ready.width() != 1) {
            throw new IllegalArgumentException("stream " + name + ": valid and ready must be 1 bit wide");
        }
        this.name = name;
        this.valid = valid;
        this.ready = ready;
        this.fields = payload.leaves();
        this.width = fields.stream().mapToInt(Bits::width).sum();
    }

    /** From a stream bundle with fields {@code valid}, {@code ready} and {@code bits} (stdlib {@code Decoupled}). */
    public static StreamPort of(Bundle stream) {
        String v = stream.get("valid").path();
        String name = v.endsWith("_valid") ? v.substring(0, v.length() - "_valid".length()) : v;
        return new StreamPort(name, ground(stream, "valid"), ground(stream, "ready"), stream.get("bits"));
    }

    /** Hierarchical name of the port, e.g. {@code flitLoopback.in}. */
    public String name() {
        return name;
    }

    public Bits valid() {
        return valid;
    }

    public Bits ready() {
        return ready;
    }

    /** Payload width in bits. */
    public int width() {
        return width;
    }

    /** The payload as an unsigned number. */
    public BigInteger peekBits(Simulator sim) {
        if (fields.size() == 1) {
            return unsigned(sim.peekBig(fields.get(0)), fields.get(0).width());
        }
        BigInteger v = BigInteger.ZERO;
        for (Bits f : fields) {
            v = v.shiftLeft(f.width()).or(unsigned(sim.peekBig(f), f.width()));
        }
        return v;
    }

    /** Drives the payload (an input of the top) from an unsigned number of at most {@link #width()} bits. */
    public void pokeBits(Simulator sim, BigInteger value) {
        if (value.signum() < 0 || value.bitLength() > width) {
            throw new IllegalArgumentException("beat 0x" + value.toString(16) + " does not fit the " + width + "-bit payload of " + name);
        }
        int lo = width;
        for (Bits f : fields) {
            lo -= f.width();
            BigInteger part = fields.size() == 1 ? value : value.shiftRight(lo).and(BigInteger.ONE.shiftLeft(f.width()).subtract(BigInteger.ONE));
            sim.poke(f, f.isSigned() && part.testBit(f.width() - 1) ? part.subtract(BigInteger.ONE.shiftLeft(f.width())) : part);
        }
    }

    @Override
    public String toString() {
        return name;
    }

    private static BigInteger unsigned(BigInteger v, int w) {
        return v.signum() < 0 ? v.add(BigInteger.ONE.shiftLeft(w)) : v;
    }

    private static Bits ground(Bundle b, String field) {
        Data d = b.get(field);
        if (!(d instanceof Bits g)) {
            throw new IllegalArgumentException("stream field '" + field + "' of " + d.path() + " must be a Bool, not "
                    + d.getClass().getSimpleName());
        }
        return g;
    }
}
