package org.flitkit.formats.core;

import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;

/**
 * The hardware view of a bit layout: reading, replacing and building the fields of a DSL word by the same
 * {@link Field} handles the software formats use ({@code LayoutBits.get(pkt, PacketLayout.HEAD.VC)}), so RTL,
 * testbenches and software cannot disagree on a bit position. docs/th2-formats.md, docs/chpp-formats.md, docs/xud-formats.md.
 */
public final class LayoutBits {
    private LayoutBits() {
    }

    /** A value placed at a layout field, for {@link #pack}. */
    public record Slot(Field field, Bits value) {
    }

    /** Bits {@code f} of {@code word}. */
    public static UInt get(Bits word, Field f) {
        return word.bits(f.msb(), f.lsb());
    }

    /** {@code word} with field {@code f} replaced by {@code value} (narrower values are zero-extended). */
    public static UInt with(Bits word, Field f, Bits value) {
        if (value.width() > f.width()) {
            throw new HdlException("field " + f.name() + " is " + f.width() + " bits; value is " + value.width());
        }
        if (f.msb() >= word.width()) {
            throw new HdlException("field " + f.name() + " [" + f.bits() + "] is outside a " + word.width() + "-bit word");
        }
        List<Bits> parts = new ArrayList<>();
        if (f.msb() < word.width() - 1) {
            parts.add(word.bits(word.width() - 1, f.msb() + 1));
        }
        parts.add(value.asUInt().pad(f.width()));
        if (f.lsb() > 0) {
            parts.add(word.bits(f.lsb() - 1, 0));
        }
        return cat(parts);
    }

    /** {@code word} with field {@code f} replaced by the constant {@code value}. */
    public static UInt with(Bits word, Field f, long value) {
        return with(word, f, lit(value, f.width()));
    }

    /** Whether any reserved bit (a bit in no field) of {@code word}, a value of {@code layout}, is set. */
    public static Bool reservedSet(Bits word, Layout layout) {
        if (word.width() != layout.width()) {
            throw new HdlException("layout " + layout.name() + " is " + layout.width() + " bits; word is " + word.width());
        }
        BigInteger mask = BigInteger.ZERO;
        for (Field f : layout.reserved()) {
            mask = mask.or(BigInteger.ONE.shiftLeft(f.width()).subtract(BigInteger.ONE).shiftLeft(f.lsb()));
        }
        return word.asUInt().and(lit(mask, layout.width())).orR();
    }

    /**
     * A word of {@code layout} from field values; fields not given (and reserved bits) are zero, each its own
     * zero part. A handle of another layout (a flit-local or payload field in a packet) is an error, not a
     * silent misplacement.
     */
    public static UInt build(Layout layout, Map<Field, ? extends Bits> values) {
        for (Field k : values.keySet()) {
            if (!layout.fields().contains(k)) {
                throw new HdlException("layout " + layout.name() + " has no field " + k + "; fields: " + layout.fields());
            }
        }
        List<Bits> parts = new ArrayList<>();
        List<Field> rows = new ArrayList<>(layout.rows());
        rows.sort((a, b) -> Integer.compare(b.lsb(), a.lsb()));
        for (Field f : rows) {
            Bits v = values.get(f);
            if (v == null) {
                parts.add(lit(0, f.width()));
            } else if (v.width() > f.width()) {
                throw new HdlException("field " + f.name() + " of " + layout.name() + " is " + f.width() + " bits; value is " + v.width());
            } else {
                parts.add(v.asUInt().pad(f.width()));
            }
        }
        return cat(parts);
    }

    /**
     * The {@code width}-bit word with each slot's value at its field, zero elsewhere (one zero part per gap);
     * values must be exactly their field's width and fields must not overlap.
     */
    public static UInt pack(int width, List<Slot> slots) {
        List<Slot> sorted = new ArrayList<>(slots);
        sorted.sort(Comparator.comparingInt((Slot s) -> s.field().lsb()).reversed());
        List<Bits> parts = new ArrayList<>();
        int top = width;
        for (Slot s : sorted) {
            Field f = s.field();
            if (s.value().width() != f.width()) {
                throw new HdlException(f + ": value of " + s.value().width() + " bits");
            }
            if (top < f.msb() + 1) {
                throw new HdlException(f + " overlaps another field or exceeds the " + width + "-bit word");
            }
            if (top > f.msb() + 1) {
                parts.add(lit(0, top - f.msb() - 1));
            }
            parts.add(s.value());
            top = f.lsb();
        }
        if (top > 0) {
            parts.add(lit(0, top));
        }
        return cat(parts);
    }

    /**
     * {@code x} with its bytes in the other order: byte 0 (bits 7..0) on top. Turns a network-order field (byte 0
     * most significant) into a little-endian host word (byte k in bits 8k+7..8k) and back.
     */
    public static UInt byteReverse(Bits x) {
        if (x.width() % 8 != 0) {
            throw new HdlException("byteReverse needs whole bytes, got " + x.width() + " bits");
        }
        int n = x.width() / 8;
        List<Bits> parts = new ArrayList<>();
        // cat puts its first part on top
        for (int k = 0; k < n; k++) {
            parts.add(x.bits(8 * k + 7, 8 * k));
        }
        return cat(parts);
    }
}
