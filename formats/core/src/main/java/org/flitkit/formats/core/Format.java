package org.flitkit.formats.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * A bit layout declared as a class: each field is a {@code public final} {@link Field} member
 * ({@code PacketLayout.BODY1.NMP_TYPE}), so a misspelt field does not compile. The members are
 * declared once, with the bit positions of the spec's table; from the same declarations the
 * format builds its validated {@link Layout} (names, meanings, reserved gaps).
 * <p>
 * An instance is one placement of the format: {@link Place#ALONE} (positions within the format,
 * plain names, e.g. {@code HopPtr[109:105]}) or {@link Place#inside} an enclosing value (positions
 * shifted, names qualified by the format's name, e.g. {@code head.HopPtr} of the packet). Member
 * names are upper case because, like the columns of a jOOQ table, they are constants of their
 * instance.
 * Used by formats/th2 and formats/chpp (docs/th2-formats.md, docs/chpp-formats.md).
 */
public abstract class Format {

    /** Where a format instance's fields sit: bit offset, and whether names carry the format's name. */
    public record Place(int offset, boolean qualified) {
        /** The format on its own: local bit positions and plain field names. */
        public static final Place ALONE = new Place(0, false);

        public Place {
            if (offset < 0) {
                throw new IllegalArgumentException("offset " + offset + " is negative");
            }
        }

        /** Inside an enclosing value, starting at bit {@code offset}; names become {@code format.Field}. */
        public static Place inside(int offset) {
            return new Place(offset, true);
        }
    }

    private final String name;
    private final int width;
    private final Place place;
    private final Layout.Builder table;
    private final List<Field> fields = new ArrayList<>();
    private volatile Layout layout;

    protected Format(String name, int width, Place place) {
        this.name = name;
        this.width = width;
        this.place = place;
        this.table = Layout.builder(name, width);
    }

    /**
     * Declares a field at bits {@code [lsb + width - 1 : lsb]} of this format and returns its
     * handle at this instance's placement. Call only from member initializers (declaration order).
     */
    protected final Field field(String fieldName, int lsb, int fieldWidth, String meaning) {
        if (layout != null) {
            throw new IllegalStateException("format '" + name + "' is complete: cannot add field '" + fieldName + "'");
        }
        table.field(fieldName, lsb, fieldWidth, meaning);
        Field f = new Field(place.qualified ? name + "." + fieldName : fieldName, place.offset + lsb, fieldWidth);
        fields.add(f);
        return f;
    }

    /** Declares {@code count} fields {@code prefix0, prefix1, ...}: field i at {@code lsb(i)}, all {@code fieldWidth} wide. */
    protected final List<Field> fields(String prefix, int count, IntUnaryOperator lsb, int fieldWidth,
                                       IntFunction<String> meaning) {
        List<Field> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(field(prefix + i, lsb.applyAsInt(i), fieldWidth, meaning.apply(i)));
        }
        return List.copyOf(out);
    }

    /** Element {@code index} of an indexed field family, or a clear error naming the valid range. */
    protected static Field indexed(List<Field> family, String what, int index) {
        if (index < 0 || index >= family.size()) {
            throw new IllegalArgumentException(what + " index " + index + " outside 0.." + (family.size() - 1)
                    + " (fields " + family.get(0).name() + ".." + family.get(family.size() - 1).name() + ")");
        }
        return family.get(index);
    }

    public final String name() {
        return name;
    }

    public final int width() {
        return width;
    }

    /** An all-zero value of this format's width. */
    public final BitVector zero() {
        return BitVector.zero(width);
    }

    /** The field handles of this instance, in declaration order. */
    public final List<Field> fields() {
        return List.copyOf(fields);
    }

    /**
     * The validated table of this format, in its own bit positions and plain names whatever the
     * placement (built once, on first use).
     */
    public final Layout layout() {
        Layout l = layout;
        if (l == null) {
            l = table.build();
            layout = l;
        }
        return l;
    }

    @Override
    public String toString() {
        return "Format[" + name + " at " + place.offset + ", " + fields + "]";
    }
}
