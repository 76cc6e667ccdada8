package org.flitkit.formats.core;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable unsigned bit string of fixed width, stored as little-endian 64-bit limbs
 * (limb 0 = bits 63..0); get/set by {@link Field}. Every setter returns a new value.
 * The software value of a {@link Layout} (docs/th2-formats.md, docs/chpp-formats.md).
 */
public final class BitVector {

    private final int width;
    private final long[] limbs;

    private BitVector(int width, long[] limbs) {
        this.width = width;
        this.limbs = limbs;
    }

    public static BitVector zero(int width) {
        if (width < 1) {
            throw new IllegalArgumentException("width must be >= 1, got " + width);
        }
        return new BitVector(width, new long[limbCount(width)]);
    }

    /** From limbs, limb 0 = bits 63..0; missing limbs are zero, set bits above the width are rejected. */
    public static BitVector fromLimbs(int width, long... limbs) {
        BitVector v = zero(width);
        for (int i = 0; i < limbs.length; i++) {
            if (limbs[i] == 0) {
                continue;
            }
            if (i >= v.limbs.length || (i == v.limbs.length - 1 && (limbs[i] & ~topMask(width)) != 0)) {
                throw new IllegalArgumentException("limb " + i + " has bits set above width " + width);
            }
            v.limbs[i] = limbs[i];
        }
        return v;
    }

    public static BitVector of(int width, BigInteger value) {
        if (value.signum() < 0 || value.bitLength() > width) {
            throw new IllegalArgumentException("value 0x" + value.toString(16) + " does not fit " + width + " bits");
        }
        BitVector v = zero(width);
        for (int i = 0; i < v.limbs.length; i++) {
            v.limbs[i] = value.shiftRight(64 * i).longValue();
        }
        return v;
    }

    public static BitVector ofLong(int width, long value) {
        return zero(width).withRange(0, Math.min(width, 64), value, "value");
    }

    /** From bytes, byte 0 = bits 7..0 (little-endian). */
    public static BitVector fromBytesLE(int width, byte[] bytes) {
        BitVector v = zero(width);
        for (int i = 0; i < bytes.length; i++) {
            v = v.withRange(8 * i, Math.min(8, width - 8 * i), bytes[i] & 0xFFL, "byte " + i);
        }
        return v;
    }

    /** Concatenation, parts.get(0) at the lowest bits. */
    public static BitVector concat(List<BitVector> lowFirst) {
        int total = lowFirst.stream().mapToInt(BitVector::width).sum();
        BitVector v = zero(total);
        int offset = 0;
        for (BitVector part : lowFirst) {
            v = v.withSlice(offset, part);
            offset += part.width;
        }
        return v;
    }

    public int width() {
        return width;
    }

    /** A copy of the limbs, limb 0 = bits 63..0. */
    public long[] limbs() {
        return limbs.clone();
    }

    public BigInteger toBigInteger() {
        BigInteger v = BigInteger.ZERO;
        for (int i = limbs.length - 1; i >= 0; i--) {
            v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(limbs[i])));
        }
        return v;
    }

    /** Bytes, byte 0 = bits 7..0; the last byte is zero-padded. */
    public byte[] toBytesLE() {
        byte[] out = new byte[(width + 7) / 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) read(limbs, 8 * i, Math.min(8, width - 8 * i));
        }
        return out;
    }

    public boolean bit(int index) {
        check(index, 1);
        return read(limbs, index, 1) != 0;
    }

    public BitVector flip(int index) {
        check(index, 1);
        long[] copy = limbs.clone();
        copy[index >>> 6] ^= 1L << (index & 63);
        return new BitVector(width, copy);
    }

    public boolean isZero() {
        return Arrays.stream(limbs).allMatch(l -> l == 0);
    }

    /** Value of a field of at most 64 bits (a 64-bit field may come back negative: read it unsigned). */
    public long get(Field f) {
        if (f.width() > 64) {
            throw new IllegalArgumentException("field " + f + " is wider than 64 bits: use getBig or slice");
        }
        check(f.lsb(), f.width());
        return read(limbs, f.lsb(), f.width());
    }

    public BigInteger getBig(Field f) {
        return slice(f.lsb(), f.width()).toBigInteger();
    }

    /** The bits of a field as a vector of the field's width. */
    public BitVector slice(Field f) {
        return slice(f.lsb(), f.width());
    }

    public BitVector slice(int lsb, int sliceWidth) {
        check(lsb, sliceWidth);
        long[] out = new long[limbCount(sliceWidth)];
        for (int done = 0; done < sliceWidth; done += 64) {
            out[done >>> 6] = read(limbs, lsb + done, Math.min(64, sliceWidth - done));
        }
        return new BitVector(sliceWidth, out);
    }

    /** Sets a field of at most 64 bits; a value that does not fit the field is rejected. */
    public BitVector with(Field f, long value) {
        if (f.width() > 64) {
            return with(f, BigInteger.valueOf(value));
        }
        return withRange(f.lsb(), f.width(), value, "field " + f.name());
    }

    public BitVector with(Field f, BigInteger value) {
        if (value.signum() < 0 || value.bitLength() > f.width()) {
            throw new IllegalArgumentException("value 0x" + value.toString(16) + " does not fit field "
                    + f + " (" + f.width() + " bits)");
        }
        return withSlice(f.lsb(), of(f.width(), value));
    }

    /** Sets a field from a vector of exactly the field's width. */
    public BitVector with(Field f, BitVector value) {
        if (value.width != f.width()) {
            throw new IllegalArgumentException("field " + f + " is " + f.width() + " bits, value is " + value.width);
        }
        return withSlice(f.lsb(), value);
    }

    public BitVector withSlice(int lsb, BitVector part) {
        check(lsb, part.width);
        long[] copy = limbs.clone();
        for (int done = 0; done < part.width; done += 64) {
            int w = Math.min(64, part.width - done);
            write(copy, lsb + done, w, read(part.limbs, done, w));
        }
        return new BitVector(width, copy);
    }

    /** Splits into chunks of {@code chunkWidth} bits, lowest first; the last chunk is zero-padded. */
    public List<BitVector> split(int chunkWidth) {
        List<BitVector> out = new ArrayList<>();
        for (int lsb = 0; lsb < width; lsb += chunkWidth) {
            int w = Math.min(chunkWidth, width - lsb);
            out.add(zero(chunkWidth).withSlice(0, slice(lsb, w)));
        }
        return out;
    }

    /** Hex, most significant digit first, zero-padded to the width. */
    public String toHex() {
        String hex = toBigInteger().toString(16);
        return "0".repeat((width + 3) / 4 - hex.length()) + hex;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BitVector other && other.width == width && Arrays.equals(other.limbs, limbs);
    }

    @Override
    public int hashCode() {
        return 31 * width + Arrays.hashCode(limbs);
    }

    @Override
    public String toString() {
        return width + "'h" + toHex();
    }

    private BitVector withRange(int lsb, int w, long value, String what) {
        check(lsb, w);
        if (w < 64 && (value >>> w) != 0) {
            throw new IllegalArgumentException("value " + Long.toUnsignedString(value) + " (0x"
                    + Long.toHexString(value) + ") does not fit " + what + " (" + w + " bits)");
        }
        long[] copy = limbs.clone();
        write(copy, lsb, w, value);
        return new BitVector(width, copy);
    }

    private void check(int lsb, int w) {
        if (lsb < 0 || w < 1 || lsb + w > width) {
            throw new IllegalArgumentException("bits [" + (lsb + w - 1) + ":" + lsb + "] are outside a "
                    + width + "-bit vector");
        }
    }

    private static int limbCount(int width) {
        return (width + 63) >>> 6;
    }

    private static long topMask(int width) {
        int r = width & 63;
        return r == 0 ? -1L : (1L << r) - 1;
    }

    private static long mask(int w) {
        return w == 64 ? -1L : (1L << w) - 1;
    }

    private static long read(long[] a, int lsb, int w) {
        int limb = lsb >>> 6;
        int off = lsb & 63;
        long v = a[limb] >>> off;
        if (off + w > 64) {
            v |= a[limb + 1] << (64 - off);
        }
        return v & mask(w);
    }

    private static void write(long[] a, int lsb, int w, long value) {
        int limb = lsb >>> 6;
        int off = lsb & 63;
        long m = mask(w);
        long v = value & m;
        a[limb] = (a[limb] & ~(m << off)) | (v << off);
        if (off + w > 64) {
            a[limb + 1] = (a[limb + 1] & ~(m >>> (64 - off))) | (v >>> (64 - off));
        }
    }
}
