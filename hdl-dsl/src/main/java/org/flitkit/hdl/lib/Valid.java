package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.Bool;

import java.util.function.Supplier;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;

/**
 * A value with a valid flag and no backpressure (Chisel's {@code Valid}/{@code ValidIO}): the producer
 * drives {@code valid} and {@code bits}, and {@code bits} means something only in cycles where
 * {@code valid} is high. {@link Decoupled} adds {@code ready} to this.
 *
 * <p>As ports: {@code output(Valid.of(UInt(8)))} produces, {@code input(Valid.of(UInt(8)))} consumes.
 * Element types are given as a ground type ({@code Valid.of(UInt(8))}), a constructor reference or lambda
 * ({@code Valid.of(Flit::new)}, {@code Valid.of(() -> new Flit(p))}), or a bundle instance
 * ({@code Valid.ofType(new Flit())}); none needs a cast.
 */
public final class Valid<T extends Data> extends Bundle {
    public final Bool valid = Bool();
    public final T bits;
    /** fresh copies of the element type; null until needed when created from a type instance */
    private Supplier<T> gen;

    private Valid(T bits, Supplier<T> gen) {
        this.bits = bits;
        this.gen = gen;
    }

    /** A valid-flagged type of elements made by {@code gen}, e.g. {@code Valid.of(() -> new Flit())}. */
    public static <T extends Data> Valid<T> of(Supplier<T> gen) {
        return new Valid<>(gen.get(), gen);
    }

    /**
     * A valid-flagged {@code type}, a fresh type such as {@code UInt(8)} (it becomes the bits field). The
     * ground types have one overload each rather than one generic {@code of(T)}: a type variable parameter
     * would make {@code of(Flit::new)} ambiguous with {@link #of(Supplier)} and force a cast.
     */
    public static Valid<UInt> of(UInt type) {
        return new Valid<>(type, null);
    }

    public static Valid<SInt> of(SInt type) {
        return new Valid<>(type, null);
    }

    public static Valid<Bool> of(Bool type) {
        return new Valid<>(type, null);
    }

    /** A valid-flagged {@code type} of any kind, e.g. {@code Valid.ofType(new Flit())} (it becomes the bits field). */
    public static <T extends Data> Valid<T> ofType(T type) {
        return new Valid<>(type, null);
    }

    /** A fresh, unbound type like this one. */
    public Valid<T> cloneType() {
        if (gen == null) {
            gen = Types.supplierOf(bits);
        }
        return of(gen);
    }

    /** Chisel's {@code fire}: there is no ready, so a value moves whenever it is valid. */
    public Bool fire() {
        return valid;
    }
}
