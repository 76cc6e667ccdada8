package org.flitkit.testbench.link;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.testbench.Component;

/**
 * One direction of a cable's faults, for a cable model with an error-mask input XORed into the frame that
 * enters it and an optional cut input: bit errors at a given bit error rate (independent errors: geometric gaps
 * between error positions, drawn from this component's seeded stream, so a cycle without an error costs no
 * draw and no poke), counted, and {@link #cut()}/{@link #restore()}.
 * Spec: 10-hdl-dsl.md, "Testbench framework" (fault injection); docs/th2-link.md, "Cable model".
 */
public final class BitErrorInjector extends Component {
    /** One injection: the cycle the frame entered and the bits flipped. */
    public record Injection(long cycle, BigInteger mask) {
    }

    /** A listener told of every injection, in the cycle it happens. */
    @FunctionalInterface
    public interface Listener {
        void injected(long cycle, BigInteger mask);
    }

    private final Bits errorMask;
    private final Bits cutInput;
    private final int width;
    private double ber;
    /** bits of this direction's stream before the current cycle's frame */
    private long position;
    /** absolute bit position of the next error (Long.MAX_VALUE: none) */
    private long nextError = Long.MAX_VALUE;
    private boolean maskDirty;
    private boolean cut;
    private long injectedBits;
    private long injectedFrames;
    private final List<Listener> listeners = new ArrayList<>();

    /**
     * @param errorMask the cable's error-mask input of this direction (its width is the frame width)
     * @param cutInput  the cable's cut input of this direction, or null if it has none
     * @param ber       bit error rate, 0 (none) to 0.5
     */
    public BitErrorInjector(String name, Bits errorMask, Bits cutInput, double ber) {
        super(name);
        if (cutInput != null && cutInput.width() != 1) {
            throw new IllegalArgumentException(name + ": the cut input must be 1 bit wide, got " + cutInput.width());
        }
        this.errorMask = errorMask;
        this.cutInput = cutInput;
        this.width = errorMask.width();
        checkBer(ber);
        this.ber = ber;
    }

    /** Changes the bit error rate from the next cycle on (0 stops the errors). */
    public BitErrorInjector ber(double newBer) {
        checkBer(newBer);
        ber = newBer;
        nextError = Long.MAX_VALUE;
        return this;
    }

    public double ber() {
        return ber;
    }

    public BitErrorInjector listen(Listener l) {
        listeners.add(l);
        return this;
    }

    /** Cuts this direction from the next cycle on (the cable delivers zeros). */
    public void cut() {
        if (cutInput == null) {
            throw new IllegalStateException(name() + ": this cable direction has no cut input");
        }
        cut = true;
    }

    public void restore() {
        cut = false;
    }

    public boolean isCut() {
        return cut;
    }

    /** Bits flipped so far. */
    public long injectedBits() {
        return injectedBits;
    }

    /** Frames (cycles) with at least one flipped bit so far. */
    public long injectedFrames() {
        return injectedFrames;
    }

    @Override
    protected void reset() {
        if (cutInput != null) {
            sim().poke(cutInput, cut);
        }
        sim().poke(errorMask, 0);
        maskDirty = false;
    }

    @Override
    protected void drive() {
        if (cutInput != null) {
            sim().poke(cutInput, cut);
        }
        if (ber > 0 && nextError == Long.MAX_VALUE) {
            nextError = position + gap();
        }
        long end = position + width;
        if (nextError < end) {
            BigInteger mask = BigInteger.ZERO;
            int bits = 0;
            while (nextError < end) {
                mask = mask.setBit((int) (nextError - position));
                bits++;
                nextError += 1 + gap();
            }
            sim().poke(errorMask, mask);
            maskDirty = true;
            injectedBits += bits;
            injectedFrames++;
            for (Listener l : listeners) {
                l.injected(cycle(), mask);
            }
        } else if (maskDirty) {
            sim().poke(errorMask, 0);
            maskDirty = false;
        }
        position = end;
    }

    /** Error-free bits before the next error: geometric with success probability ber. */
    private long gap() {
        double u = 1.0 - rng().nextDouble(); // (0, 1]
        double g = Math.floor(Math.log(u) / Math.log1p(-ber));
        return g >= 1e15 ? (long) 1e15 : (long) g;
    }

    private static void checkBer(double ber) {
        if (!(ber >= 0 && ber <= 0.5)) {
            throw new IllegalArgumentException("bit error rate must be 0..0.5, got " + ber);
        }
    }

    @Override
    public List<String> describeState() {
        return injectedBits == 0 && !cut ? List.of() : List.of("ber " + ber + ", " + injectedBits + " bits flipped in "
                + injectedFrames + " frames" + (cut ? ", cut" : ""));
    }
}
