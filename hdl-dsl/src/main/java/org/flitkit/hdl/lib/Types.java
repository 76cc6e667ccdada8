package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import java.lang.reflect.Constructor;
import java.util.List;
import java.util.function.Supplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.SInt;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;

/**
 * Type plumbing for generic library blocks: fresh copies of a type (Chisel's {@code cloneType}) and
 * flattening any {@link Data} to one UInt and back, the first leaf most significant (as
 * {@link Bundle#asUInt()}), so a queue or arbiter can carry bundles through a memory or a mux.
 */
public final class Types {
    private Types() {
    }

    /**
     * A fresh, unbound type shaped like {@code template} (which may be hardware). Works for ground types,
     * vectors, {@link Decoupled}, {@link Valid} and bundles with a no-argument constructor; other bundles need a
     * {@code Supplier} from the caller.
     */
    @SuppressWarnings("unchecked")
    public static <T extends Data> T cloneType(T template) {
        if (template instanceof Bool) {
            return (T) Bool();
        }
        if (template instanceof SInt s) {
            return (T) SInt(s.width());
        }
        if (template instanceof UInt u) {
            return (T) UInt(u.width());
        }
        if (template instanceof Vec<?> v) {
            Data first = v.get(0);
            return (T) Vec(v.size(), () -> cloneType(first));
        }
        if (template instanceof Decoupled<?> d) {
            return (T) d.cloneType();
        }
        if (template instanceof Valid<?> v) {
            return (T) v.cloneType();
        }
        try {
            Constructor<? extends Data> c = template.getClass().getDeclaredConstructor();
            c.setAccessible(true);
            return (T) c.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new HdlException("cannot make a fresh copy of " + template.getClass().getName()
                    + " (no usable no-argument constructor: " + e + "); pass a Supplier such as () -> new "
                    + template.getClass().getSimpleName() + "(...) instead");
        }
    }

    /** A supplier of fresh copies of {@code template}'s type. */
    public static <T extends Data> Supplier<T> supplierOf(T template) {
        return () -> cloneType(template);
    }

    /** Total width of all leaves. */
    public static int widthOf(Data d) {
        int w = 0;
        for (Bits b : d.leaves()) {
            w += b.width();
        }
        return w;
    }

    /** All leaves of {@code d} concatenated, the first leaf in the most significant position. */
    public static UInt pack(Data d) {
        List<Bits> leaves = d.leaves();
        return leaves.size() == 1 ? leaves.get(0).asUInt() : cat(leaves);
    }

    /** Drives every leaf of {@code target} from its slice of {@code bits} (the inverse of {@link #pack}). */
    public static void unpack(Data target, UInt bits) {
        int w = widthOf(target);
        if (bits.width() != w) {
            throw new HdlException("unpack: " + bits.width() + " bits for a " + w + "-bit " + target.getClass().getSimpleName());
        }
        int hi = w - 1;
        for (Bits leaf : target.leaves()) {
            UInt part = bits.bits(hi, hi - leaf.width() + 1);
            leaf.assign(leaf.isSigned() ? part.asSInt() : part);
            hi -= leaf.width();
        }
    }
}
