package org.flitkit.hdl;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A record of named fields, like Chisel's Bundle: subclass it and declare {@code public final} fields
 * of Data types (mark reverse-direction fields with {@link Hdl#flipped}). Flattened names join with
 * '_' ({@code io_in_valid}), as in Chisel's Verilog.
 */
public abstract class Bundle extends Data {
    private Map<String, Data> elements;

    /** Fields in declaration order (superclass fields first). */
    public Map<String, Data> elements() {
        if (elements == null) {
            Map<String, Data> m = new LinkedHashMap<>();
            List<Class<?>> chain = new ArrayList<>();
            for (Class<?> c = getClass(); c != Bundle.class; c = c.getSuperclass()) {
                chain.add(c);
            }
            Collections.reverse(chain);
            for (Class<?> c : chain) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || !Data.class.isAssignableFrom(f.getType()) || f.isSynthetic()) {
                        continue;
                    }
                    f.setAccessible(true);
                    Data d;
                    try {
                        d = (Data) f.get(this);
                    } catch (IllegalAccessException e) {
                        throw new HdlException("cannot read bundle field " + c.getName() + "." + f.getName() + ": " + e);
                    }
                    if (d == null) {
                        throw new HdlException("bundle field " + c.getSimpleName() + "." + f.getName()
                                + " is null when the bundle is used at " + SrcLoc.here());
                    }
                    if (d.aggParent != null && d.aggParent != this) {
                        throw new HdlException("bundle field " + c.getSimpleName() + "." + f.getName()
                                + " already belongs to another bundle or vector; create a fresh type for each field");
                    }
                    d.aggParent = this;
                    d.localName = f.getName();
                    m.put(f.getName(), d);
                }
            }
            elements = Collections.unmodifiableMap(m);
        }
        return elements;
    }

    /** One field by name. */
    public Data get(String field) {
        Data d = elements().get(field);
        if (d == null) {
            throw new HdlException(getClass().getSimpleName() + " has no field '" + field + "'; fields: " + elements().keySet());
        }
        return d;
    }

    @Override
    public List<Bits> leaves() {
        return collect(elements().values());
    }

    @Override
    String shape() {
        StringBuilder sb = new StringBuilder(getClass().getSimpleName()).append('{');
        elements().forEach((k, v) -> sb.append(sb.charAt(sb.length() - 1) == '{' ? "" : ", ").append(k).append(": ").append(v.shape()));
        return sb.append('}').toString();
    }

    /** Total width of all leaves. */
    public int width() {
        int w = 0;
        for (Bits b : leaves()) {
            w += b.width;
        }
        return w;
    }

    /** All fields packed into one value, the first field in the most significant position (Chisel's asUInt). */
    public UInt asUInt() {
        List<Bits> l = leaves();
        return Hdl.cat(l.toArray(new Bits[0]));
    }

    /** Drives every field from the matching slice of {@code bits} (the inverse of {@link #asUInt()}). */
    public void assignFromBits(UInt bits) {
        if (bits.width() != width()) {
            throw new HdlException("assignFromBits at " + SrcLoc.here() + ": " + bits.width() + " bits for a " + width()
                    + "-bit " + getClass().getSimpleName());
        }
        int hi = bits.width() - 1;
        for (Bits leaf : leaves()) {
            UInt part = bits.bits(hi, hi - leaf.width + 1);
            leaf.assign(leaf.isSigned() ? part.asSInt() : part);
            hi -= leaf.width;
        }
    }
}
