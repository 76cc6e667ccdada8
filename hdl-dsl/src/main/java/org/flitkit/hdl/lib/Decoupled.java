package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import java.util.function.Supplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;

/**
 * A ready/valid stream (Chisel's {@code DecoupledIO}): the producer drives {@code valid} and {@code bits},
 * the consumer drives {@code ready}, and one element moves on every cycle where both are high
 * ({@link #fire()}).
 *
 * <p>Handshake rules: {@code valid} must not depend combinationally on {@code ready}; once {@code valid}
 * is high, {@code valid} and {@code bits} hold until the element fires. {@code ready} may depend on
 * {@code valid} and may drop at any time.
 *
 * <p>As ports: {@code output(Decoupled.of(UInt(20)))} is a producer, {@code input(Decoupled.of(UInt(20)))}
 * a consumer (Chisel's {@code Flipped(Decoupled(...))}); join two with {@code a.connect(b)}.
 */
public final class Decoupled<T extends Data> extends Bundle {
    public final Bool ready = flipped(Bool());
    public final Bool valid = Bool();
    public final T bits;
    /** fresh copies of the element type; null until needed when created from a type instance */
    private Supplier<T> gen;

    private Decoupled(T bits, Supplier<T> gen) {
        this.bits = bits;
        this.gen = gen;
    }

    /** A stream type of elements made by {@code gen}, e.g. {@code Decoupled.of(() -> new Flit())}. */
    public static <T extends Data> Decoupled<T> of(Supplier<T> gen) {
        return new Decoupled<>(gen.get(), gen);
    }

    /** A stream of {@code type}, a fresh type such as {@code UInt(20)} (it becomes the bits field). */
    public static Decoupled<UInt> of(UInt type) {
        return new Decoupled<>(type, null);
    }

    public static Decoupled<SInt> of(SInt type) {
        return new Decoupled<>(type, null);
    }

    public static Decoupled<Bool> of(Bool type) {
        return new Decoupled<>(type, null);
    }

    /** Fresh copies of the element type. */
    public Supplier<T> elementType() {
        if (gen == null) {
            gen = Types.supplierOf(bits);
        }
        return gen;
    }

    /** A fresh, unbound stream type like this one. */
    public Decoupled<T> cloneType() {
        return of(elementType());
    }

    /** High when an element moves this cycle: valid && ready. */
    public Bool fire() {
        return valid.and(ready);
    }

    // ---------------------------------------------------------------- Chisel's DecoupledIO helpers

    /** Producer side: offers {@code data} (under the enclosing when conditions). */
    public void enq(Data data) {
        valid.assign(TRUE());
        bits.assign(data);
    }

    /** Producer side: offers nothing; drives bits to zero (there is no DontCare). */
    public void noenq() {
        valid.assign(FALSE());
        for (Bits leaf : bits.leaves()) {
            leaf.assign(0);
        }
    }

    /** Consumer side: accepts an element if one is offered and returns the bits. */
    public T deq() {
        ready.assign(TRUE());
        return bits;
    }

    /** Consumer side: accepts nothing. */
    public void nodeq() {
        ready.assign(FALSE());
    }
}
