package org.flitkit.formats.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable, validated bit layout: a name, a total width and named, non-overlapping
 * {@link Field}s. Bits not covered by a field are reserved and must be zero.
 * The tables of docs/th2-formats.md, docs/chpp-formats.md and docs/xud-formats.md are printed from these.
 */
public final class Layout {

    /** Name used for reserved gaps in {@link #rows()}. */
    public static final String RESERVED = "reserved";

    private final String name;
    private final int width;
    private final List<Field> fields;
    private final Map<String, Field> byName;
    private final Map<String, String> meanings;

    private Layout(String name, int width, List<Field> fields, Map<String, String> meanings) {
        this.name = name;
        this.width = width;
        this.fields = List.copyOf(fields);
        Map<String, Field> map = new LinkedHashMap<>();
        for (Field f : fields) {
            map.put(f.name(), f);
        }
        this.byName = Collections.unmodifiableMap(map);
        this.meanings = Collections.unmodifiableMap(new LinkedHashMap<>(meanings));
        validate();
    }

    public static Builder builder(String name, int width) {
        return new Builder(name, width);
    }

    /**
     * Concatenates layouts, part 0 at the lowest bits; each field is renamed
     * {@code prefix + "." + field}, where the prefix is the part's layout name.
     */
    public static Layout concat(String name, List<Layout> parts) {
        List<Field> fields = new ArrayList<>();
        Map<String, String> meanings = new LinkedHashMap<>();
        int offset = 0;
        for (Layout part : parts) {
            for (Field f : part.fields) {
                String qualified = part.name + "." + f.name();
                fields.add(f.shifted(qualified, offset));
                meanings.put(qualified, part.meaning(f.name()));
            }
            offset += part.width;
        }
        return new Layout(name, offset, fields, meanings);
    }

    public String name() {
        return name;
    }

    public int width() {
        return width;
    }

    /** Fields in declaration order. */
    public List<Field> fields() {
        return fields;
    }

    /**
     * The field called {@code fieldName}, for names that come from data (documentation, a user's
     * script); code uses the {@link Format} handles. A clear {@link IllegalArgumentException} listing
     * the valid names if absent.
     */
    public Field field(String fieldName) {
        Field f = byName.get(fieldName);
        if (f == null) {
            throw new IllegalArgumentException("layout '" + name + "' has no field '" + fieldName
                    + "'; fields: " + byName.keySet());
        }
        return f;
    }

    public String meaning(String fieldName) {
        field(fieldName);
        return meanings.getOrDefault(fieldName, "");
    }

    /** An all-zero value of this layout's width. */
    public BitVector zero() {
        return BitVector.zero(width);
    }

    /** All fields plus reserved gaps, from the most significant bit down (the table order). */
    public List<Field> rows() {
        List<Field> sorted = new ArrayList<>(fields);
        sorted.sort(Comparator.comparingInt(Field::lsb));
        List<Field> rows = new ArrayList<>();
        int next = 0;
        for (Field f : sorted) {
            if (f.lsb() > next) {
                rows.add(new Field(RESERVED, next, f.lsb() - next));
            }
            rows.add(f);
            next = f.msb() + 1;
        }
        if (next < width) {
            rows.add(new Field(RESERVED, next, width - next));
        }
        Collections.reverse(rows);
        return rows;
    }

    /** The reserved gaps (bits covered by no field). */
    public List<Field> reserved() {
        return rows().stream().filter(f -> f.name().equals(RESERVED)).toList();
    }

    /** Rejects a value of this layout whose reserved bits are not all zero. */
    public void requireReservedZero(BitVector bits) {
        if (bits.width() != width) {
            throw new IllegalArgumentException("layout '" + name + "' is " + width + " bits, value is " + bits.width());
        }
        for (Field gap : reserved()) {
            if (!bits.slice(gap).isZero()) {
                throw new IllegalArgumentException(name + ": reserved bits [" + gap.bits() + "] must be 0");
            }
        }
    }

    private void validate() {
        String where = "layout '" + name + "' (" + width + " bits)";
        if (width < 1) {
            throw new IllegalArgumentException(where + ": width must be >= 1");
        }
        if (byName.size() != fields.size()) {
            throw new IllegalArgumentException(where + ": duplicate field names in " + fields);
        }
        for (Field f : fields) {
            if (f.name().equals(RESERVED)) {
                throw new IllegalArgumentException(where + ": '" + RESERVED + "' is not a field name");
            }
            if (f.msb() >= width) {
                throw new IllegalArgumentException(where + ": field " + f + " exceeds bit " + (width - 1));
            }
        }
        for (int i = 0; i < fields.size(); i++) {
            for (int j = i + 1; j < fields.size(); j++) {
                if (fields.get(i).overlaps(fields.get(j))) {
                    throw new IllegalArgumentException(where + ": field " + fields.get(j)
                            + " overlaps field " + fields.get(i));
                }
            }
        }
    }

    @Override
    public String toString() {
        return "Layout[" + name + ", " + width + " bits, " + fields + "]";
    }

    /** Collects fields in order; {@link #build()} validates the whole table. */
    public static final class Builder {
        private final String name;
        private final int width;
        private final List<Field> fields = new ArrayList<>();
        private final Map<String, String> meanings = new LinkedHashMap<>();

        private Builder(String name, int width) {
            this.name = name;
            this.width = width;
        }

        public Builder field(String fieldName, int lsb, int fieldWidth, String meaning) {
            fields.add(new Field(fieldName, lsb, fieldWidth));
            meanings.put(fieldName, meaning);
            return this;
        }

        public Layout build() {
            return new Layout(name, width, fields, meanings);
        }
    }
}
