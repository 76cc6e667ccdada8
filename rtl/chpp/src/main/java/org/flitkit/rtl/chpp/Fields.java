package org.flitkit.rtl.chpp;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.flitkit.formats.th2.Field;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.UInt;

/**
 * Hardware access to the formats' bit layouts (formats/chpp field handles): a field of a word, a word built from
 * values at their fields, and the byte order of a 16-byte beat. The one place the engines slice and place layout
 * fields, so no block retypes a position. docs/chpp-formats.md, "Bit order".
 */
public final class Fields {
    private Fields() {
    }

    /** A value placed at a layout field. */
    public record Slot(Field field, Bits value) {
    }

    /** Bits {@code f} of {@code v}. */
    public static UInt get(UInt v, Field f) {
        return v.bits(f.msb(), f.lsb());
    }

    /** The {@code width}-bit word with each slot's value at its field (widths and overlaps checked), zero elsewhere. */
    public static UInt pack(int width, List<Slot> slots) {
        List<Slot> sorted = new ArrayList<>(slots);
        sorted.sort(Comparator.comparingInt((Slot s) -> s.field().lsb()).reversed());
        List<Bits> parts = new ArrayList<>();
        int top = width;
        for (Slot s : sorted) {
            Field f = s.field();
            if (s.value().width() != f.width()) {
                throw new IllegalStateException(f + ": value of " + s.value().width() + " bits");
            }
            if (top < f.msb() + 1) {
                throw new IllegalStateException(f + " overlaps another field");
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

    /** The bytes of a beat in the other order: PCIe order (byte i in bits 8i+7..8i) to wire order (byte 0 on top) and back. */
    public static UInt byteSwap(UInt beat) {
        int n = beat.width() / 8;
        List<Bits> parts = new ArrayList<>();
        // cat puts its first part on top
        for (int i = 0; i < n; i++) {
            parts.add(beat.bits(8 * i + 7, 8 * i));
        }
        return cat(parts);
    }
}
