package org.flitkit.formats.core;

import java.math.BigInteger;

/**
 * One named bit field of a {@link Layout}: bits {@code [lsb + width - 1 : lsb]}.
 * Each chip's formats define every bit layout once as a table of these: docs/th2-formats.md,
 * docs/chpp-formats.md, docs/xud-formats.md.
 */
public record Field(String name, int lsb, int width) {

    public Field {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("field name must not be blank");
        }
        if (lsb < 0) {
            throw new IllegalArgumentException("field '" + name + "': lsb " + lsb + " is negative");
        }
        if (width < 1) {
            throw new IllegalArgumentException("field '" + name + "': width " + width + " must be >= 1");
        }
    }

    /** Highest bit index of the field. */
    public int msb() {
        return lsb + width - 1;
    }

    /** Bit range as written in the tables: {@code "msb:lsb"}, or just {@code "n"} for one bit. */
    public String bits() {
        return width == 1 ? Integer.toString(lsb) : msb() + ":" + lsb;
    }

    /** Largest unsigned value the field can hold, for widths up to 63. */
    public long maxValue() {
        if (width > 63) {
            throw new IllegalStateException("field '" + name + "' is " + width + " bits wide");
        }
        return (1L << width) - 1;
    }

    /** Same field moved up by {@code offset} bits and renamed (used to concatenate layouts). */
    public Field shifted(String newName, int offset) {
        return new Field(newName, lsb + offset, width);
    }

    /** This field of {@code word} (a non-negative integer, bit 0 = its lsb), for fields up to 63 bits. */
    public long get(BigInteger word) {
        return getBig(word).longValueExact();
    }

    /** This field of a 64-bit word (a register's value), for fields up to 63 bits that end below bit 64. */
    public long get(long word) {
        if (lsb + width > 64) {
            throw new IllegalStateException("field '" + name + "' [" + bits() + "] does not fit a 64-bit word");
        }
        return word >>> lsb & maxValue();
    }

    /** A 64-bit word (a register's value) with this field replaced by {@code value}; a value that does not fit is a clear error. */
    public long set(long word, long value) {
        get(word);
        if (value < 0 || value > maxValue()) {
            throw new IllegalArgumentException(name + " is " + width + " bits; 0x" + Long.toHexString(value) + " does not fit");
        }
        return word & ~(maxValue() << lsb) | value << lsb;
    }

    /** This field of {@code word}, any width. */
    public BigInteger getBig(BigInteger word) {
        return word.shiftRight(lsb).and(mask());
    }

    /** {@code word} with this field replaced by {@code value}. */
    public BigInteger set(BigInteger word, long value) {
        return set(word, BigInteger.valueOf(value));
    }

    /** {@code word} with this field replaced by {@code value}; a value that does not fit is a clear error. */
    public BigInteger set(BigInteger word, BigInteger value) {
        if (value.signum() < 0 || value.bitLength() > width) {
            throw new IllegalArgumentException(name + " is " + width + " bits; 0x" + value.toString(16) + " does not fit");
        }
        return word.andNot(mask().shiftLeft(lsb)).or(value.shiftLeft(lsb));
    }

    private BigInteger mask() {
        return BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE);
    }

    boolean overlaps(Field other) {
        return lsb <= other.msb() && other.lsb <= msb();
    }

    @Override
    public String toString() {
        return name + "[" + bits() + "]";
    }
}
