package org.flitkit.hdl.sim;

import java.math.BigInteger;

/**
 * Wide-integer runtime for the generated simulator.
 *
 * <p>One class of over 600 lines on purpose: generated code calls these methods as {@code Wide.name(...)}, so
 * moving any of them would change every generated source (and its class-name hash); each method is short and
 * self-contained, and the tests in {@code Wide*Test} cover them one by one.
 *
 * <h2>Representation</h2>
 * A value of {@code w} bits ({@code w >= 1}) is stored in a {@code long[]} starting at an offset
 * {@code off} as {@code n = limbs(w) = (w + 63) / 64} little-endian 64-bit limbs: {@code x[off]}
 * holds bits 63..0, {@code x[off + 1]} holds bits 127..64, and so on.
 *
 * <p><b>Canonical form:</b> the bits at and above {@code w} in the top limb {@code x[off + n - 1]}
 * are zero. Every method assumes canonical inputs and writes canonical results. Signed values
 * (SInt) are stored as their {@code w}-bit two's complement pattern, i.e. also canonical; the sign
 * bit is bit {@code w - 1}, and the {@code signed} flags only change how a pattern is interpreted.
 *
 * <p>Destinations are given as {@code (long[] d, int doff, int dw)}; exactly the {@code limbs(dw)}
 * limbs starting at {@code doff} are written (except {@link #insert}/{@link #insertWide}, which
 * OR into a pre-zeroed destination). Nothing else in the array is touched, apart from the
 * caller-provided {@code scratch} area of {@link #div}/{@link #rem}.
 *
 * <h2>Aliasing</h2>
 * "Aliasing" means the destination is the <em>same array at the same offset</em> as a source.
 * Partially overlapping regions (same array, different but overlapping ranges) are never
 * supported. Exact aliasing is supported by: {@link #copy}, {@link #extend}, {@link #add},
 * {@link #sub}, {@link #and}, {@link #or}, {@link #xor}, {@link #not}, {@link #neg}, {@link #shl},
 * {@link #shr}, {@link #extractWide}, {@link #div} and {@link #rem}. It is <em>not</em> supported
 * by {@link #mul} and {@link #insertWide} (the destination must be disjoint from the sources).
 * The scratch area of div/rem must be disjoint from everything else.
 *
 * <h2>Shift amounts</h2>
 * Shift amounts are {@code long}s interpreted as <em>unsigned</em> 64-bit values, so an amount
 * that arrives from a 64-bit hardware signal with its top bit set is simply a huge shift. Any
 * amount at or above the width is handled as in hardware (never masked the way Java masks
 * {@code <<} and {@code >>} distances).
 *
 * <h2>Performance contract</h2>
 * All methods on the simulation path are static, allocation free, use only primitive locals and
 * simple loops, and are kept small so HotSpot inlines them into the Janino-compiled model.
 * Only {@link #toBigInteger}, {@link #fromBigInteger} and {@link #toBinary} allocate; they are
 * meant for tests, debugging and waveform/trace output.
 */
public final class Wide {

    private Wide() {
    }

    // ------------------------------------------------------------------------------------------
    // Layout helpers
    // ------------------------------------------------------------------------------------------

    /** Number of 64-bit limbs needed for a value of {@code width} bits. */
    public static int limbs(int width) {
        return (width + 63) >>> 6;
    }

    /** Mask with the low {@code w} bits set, {@code 0 <= w <= 64} ({@code maskOf(64) == -1L}). */
    public static long maskOf(int w) {
        return w >= 64 ? -1L : (1L << w) - 1L;
    }

    /** Clears the bits at and above {@code dw} in the top limb of {@code d}. */
    public static void mask(long[] d, int doff, int dw) {
        d[doff + limbs(dw) - 1] &= maskOf(topBits(dw));
    }

    /** Sets the {@code dw}-bit value {@code d} to zero. */
    public static void zero(long[] d, int doff, int dw) {
        fill(d, doff, limbs(dw), 0L);
    }

    /** Copies the {@code w}-bit value {@code a} to {@code d}. Aliasing allowed. */
    public static void copy(long[] d, int doff, int w, long[] a, int aoff) {
        System.arraycopy(a, aoff, d, doff, limbs(w));
    }

    /**
     * Resizes the {@code aw}-bit value {@code a} to {@code dw} bits: truncates, or zero-extends
     * ({@code signed == false}) or sign-extends ({@code signed == true}). Aliasing allowed.
     */
    public static void extend(long[] d, int doff, int dw, long[] a, int aoff, int aw, boolean signed) {
        int na = limbs(aw);
        int nd = limbs(dw);
        long fill = signed ? -signBit(a, aoff, aw) : 0L;
        long top = topExtended(a, aoff, aw, fill);
        for (int i = 0; i < nd; i++) {
            d[doff + i] = limbExt(a, aoff, na, top, fill, i);
        }
        mask(d, doff, dw);
    }

    /**
     * Writes the canonical {@code xw}-bit value {@code x} ({@code 1 <= xw <= 64}) to the
     * {@code dw}-bit destination, truncating, zero- or sign-extending as needed.
     */
    public static void fromLong(long[] d, int doff, int dw, long x, int xw, boolean signed) {
        long v = signed ? sext(x, xw) : x & maskOf(xw);
        long fill = signed ? v >> 63 : 0L;
        d[doff] = v;
        fill(d, doff + 1, limbs(dw) - 1, fill);
        mask(d, doff, dw);
    }

    /** The low 64 bits of {@code a}. */
    public static long toLong(long[] a, int aoff) {
        return a[aoff];
    }

    // ------------------------------------------------------------------------------------------
    // Same-width arithmetic and logic (all allow d to alias a and/or b)
    // ------------------------------------------------------------------------------------------

    /** {@code d = (a + b) mod 2^w}. */
    public static void add(long[] d, int doff, long[] a, int aoff, long[] b, int boff, int w) {
        int n = limbs(w);
        long carry = 0L;
        for (int i = 0; i < n; i++) {
            long x = a[aoff + i];
            long y = b[boff + i];
            long s = x + y + carry;
            carry = ((x & y) | ((x | y) & ~s)) >>> 63;
            d[doff + i] = s;
        }
        mask(d, doff, w);
    }

    /** {@code d = (a - b) mod 2^w}. */
    public static void sub(long[] d, int doff, long[] a, int aoff, long[] b, int boff, int w) {
        int n = limbs(w);
        long borrow = 0L;
        for (int i = 0; i < n; i++) {
            long x = a[aoff + i];
            long y = b[boff + i];
            long s = x - y - borrow;
            borrow = ((~x & y) | ((~x | y) & s)) >>> 63;
            d[doff + i] = s;
        }
        mask(d, doff, w);
    }

    /** {@code d = a & b}. */
    public static void and(long[] d, int doff, long[] a, int aoff, long[] b, int boff, int w) {
        int n = limbs(w);
        for (int i = 0; i < n; i++) {
            d[doff + i] = a[aoff + i] & b[boff + i];
        }
    }

    /** {@code d = a | b}. */
    public static void or(long[] d, int doff, long[] a, int aoff, long[] b, int boff, int w) {
        int n = limbs(w);
        for (int i = 0; i < n; i++) {
            d[doff + i] = a[aoff + i] | b[boff + i];
        }
    }

    /** {@code d = a ^ b}. */
    public static void xor(long[] d, int doff, long[] a, int aoff, long[] b, int boff, int w) {
        int n = limbs(w);
        for (int i = 0; i < n; i++) {
            d[doff + i] = a[aoff + i] ^ b[boff + i];
        }
    }

    /** {@code d = ~a} (in {@code w} bits). */
    public static void not(long[] d, int doff, long[] a, int aoff, int w) {
        int n = limbs(w);
        for (int i = 0; i < n; i++) {
            d[doff + i] = ~a[aoff + i];
        }
        mask(d, doff, w);
    }

    /** {@code d = (-a) mod 2^w}. */
    public static void neg(long[] d, int doff, long[] a, int aoff, int w) {
        int n = limbs(w);
        long borrow = 0L;
        for (int i = 0; i < n; i++) {
            long x = a[aoff + i];
            long s = -x - borrow;
            borrow = (x | s) >>> 63;
            d[doff + i] = s;
        }
        mask(d, doff, w);
    }

    // ------------------------------------------------------------------------------------------
    // Multiplication
    // ------------------------------------------------------------------------------------------

    /**
     * {@code d = (a * b) mod 2^dw}, where {@code a} has {@code aw} bits and {@code b} has
     * {@code bw} bits, both unsigned or both two's complement signed. Cost is
     * O(limbs(aw) * limbs(bw)) for unsigned/non-negative operands, up to O(limbs(dw)^2) for
     * negative signed ones. <b>{@code d} must not alias or overlap {@code a} or {@code b}.</b>
     */
    public static void mul(long[] d, int doff, int dw, long[] a, int aoff, int aw,
                           long[] b, int boff, int bw, boolean signed) {
        int nd = limbs(dw);
        int na = limbs(aw);
        int nb = limbs(bw);
        // Signed operands are treated as sign-extended to dw bits; the product mod 2^dw of the
        // extended patterns is then exactly the signed product mod 2^dw.
        long aFill = signed ? -signBit(a, aoff, aw) : 0L;
        long bFill = signed ? -signBit(b, boff, bw) : 0L;
        long aTop = topExtended(a, aoff, aw, aFill);
        long bTop = topExtended(b, boff, bw, bFill);
        int ea = aFill == 0L ? Math.min(na, nd) : nd;
        int eb = bFill == 0L ? Math.min(nb, nd) : nd;
        fill(d, doff, nd, 0L);
        for (int i = 0; i < ea; i++) {
            long x = limbExt(a, aoff, na, aTop, aFill, i);
            if (x != 0L) {
                mulRow(d, doff + i, Math.min(eb, nd - i), x, b, boff, nb, bTop, bFill, nd - i);
            }
        }
        mask(d, doff, dw);
    }

    /**
     * Adds {@code x * b[0..len)} into {@code d[doff..doff+len)} and stores the final carry at
     * {@code d[doff+len]} if {@code len < room} (that limb is still unwritten at this point).
     */
    private static void mulRow(long[] d, int doff, int len, long x,
                               long[] b, int boff, int nb, long bTop, long bFill, int room) {
        long carry = 0L;
        for (int j = 0; j < len; j++) {
            long y = limbExt(b, boff, nb, bTop, bFill, j);
            long lo = x * y;
            long hi = mulHighU(x, y);
            long t = d[doff + j] + lo;
            hi += Long.compareUnsigned(t, lo) < 0 ? 1L : 0L;
            t += carry;
            hi += Long.compareUnsigned(t, carry) < 0 ? 1L : 0L;
            d[doff + j] = t;
            carry = hi; // cannot overflow: x*y + t + carry < 2^128
        }
        if (len < room) {
            d[doff + len] = carry;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Division (Verilog semantics)
    // ------------------------------------------------------------------------------------------

    /**
     * Size in limbs of the scratch area {@link #div} and {@link #rem} need:
     * {@code limbs(aw) + 2 * limbs(bw)} (never more than {@code 3 * limbs(max(aw, bw))}).
     */
    public static int divScratch(int aw, int bw) {
        return limbs(aw) + 2 * limbs(bw);
    }

    /**
     * Quotient {@code a / b} truncated to {@code dw} bits. Unsigned, or (if {@code signed}) two's
     * complement with truncation toward zero as in Verilog; {@code -2^(aw-1) / -1} is
     * {@code 2^(aw-1)} (representable when {@code dw > aw}). Division by zero yields 0.
     * {@code scratch[soff .. soff + divScratch(aw, bw))} is clobbered and must not overlap
     * anything else; {@code d} may alias {@code a} or {@code b}. Cost is O(1) if the dividend
     * magnitude fits in 64 bits, otherwise O((bitLen(a) - bitLen(b) + 1) * limbs(bitLen(b))).
     */
    public static void div(long[] d, int doff, int dw, long[] a, int aoff, int aw,
                           long[] b, int boff, int bw, boolean signed, long[] scratch, int soff) {
        int sa = soff;
        int sb = sa + limbs(aw);
        boolean negA = loadMagnitude(scratch, sa, a, aoff, aw, signed);
        boolean negB = loadMagnitude(scratch, sb, b, boff, bw, signed);
        divMod(scratch, sa, limbs(aw), sb, limbs(bw), sb + limbs(bw));
        extend(d, doff, dw, scratch, sa, aw, false);
        if (negA != negB) {
            neg(d, doff, d, doff, dw);
        }
    }

    /**
     * Remainder {@code a % b} truncated to {@code dw} bits; for signed operands it has the sign
     * of the dividend (Verilog / truncating division). Remainder by zero yields 0. Scratch and
     * aliasing rules as for {@link #div}.
     */
    public static void rem(long[] d, int doff, int dw, long[] a, int aoff, int aw,
                           long[] b, int boff, int bw, boolean signed, long[] scratch, int soff) {
        int sa = soff;
        int sb = sa + limbs(aw);
        int sr = sb + limbs(bw);
        boolean negA = loadMagnitude(scratch, sa, a, aoff, aw, signed);
        loadMagnitude(scratch, sb, b, boff, bw, signed);
        divMod(scratch, sa, limbs(aw), sb, limbs(bw), sr);
        extend(d, doff, dw, scratch, sr, bw, false);
        if (negA) {
            neg(d, doff, d, doff, dw);
        }
    }

    /** Copies {@code a} to {@code s[so..]} as an unsigned magnitude; returns whether it was negative. */
    private static boolean loadMagnitude(long[] s, int so, long[] a, int aoff, int w, boolean signed) {
        copy(s, so, w, a, aoff);
        boolean negative = signed && signBit(a, aoff, w) != 0L;
        if (negative) {
            neg(s, so, s, so, w); // -2^(w-1) becomes 2^(w-1), correct as an unsigned magnitude
        }
        return negative;
    }

    /**
     * Unsigned division of A = s[sa..sa+na) by B = s[sb..sb+nb). Afterwards A holds the quotient
     * and R = s[sr..sr+nb) the remainder (both zero when B is zero). Bit-serial restoring division
     * that only iterates over the quotient bits that can be non-zero; the quotient is built in
     * place of the dividend bits as they are consumed.
     */
    private static void divMod(long[] s, int sa, int na, int sb, int nb, int sr) {
        int la = bitLength(s, sa, na);
        int lb = bitLength(s, sb, nb);
        fill(s, sr, nb, 0L);
        if (lb == 0) {                       // division by zero: q = r = 0
            fill(s, sa, na, 0L);
        } else if (la < lb) {                // q = 0, r = A
            System.arraycopy(s, sa, s, sr, limbs(la));
            fill(s, sa, na, 0L);
        } else if (la <= 64) {               // both fit in one limb (lb <= la)
            long x = s[sa];
            long y = s[sb];
            s[sa] = Long.divideUnsigned(x, y);
            s[sr] = Long.remainderUnsigned(x, y);
        } else {
            divModSlow(s, sa, na, la, sb, lb, sr);
        }
    }

    private static void divModSlow(long[] s, int sa, int na, int la, int sb, int lb, int sr) {
        int qbits = la - lb + 1;             // quotient < 2^qbits
        int nr = limbs(lb);
        if (lb > 1) {
            shr(s, sr, lb - 1, s, sa, la, qbits, false); // R = A >> qbits  (< B)
        }
        fill(s, sa + limbs(qbits), na - limbs(qbits), 0L);
        mask(s, sa, qbits);                  // A keeps only the not yet consumed bits
        for (int i = qbits - 1; i >= 0; i--) {
            int qi = sa + (i >>> 6);
            long in = (s[qi] >>> i) & 1L;
            long out = shiftLeft1(s, sr, nr, in);          // R = 2R + bit i of A
            long q = (out != 0L || !ltLimbs(s, sr, s, sb, nr)) ? 1L : 0L;
            if (q != 0L) {
                subLimbs(s, sr, s, sb, nr);  // wraps correctly when out == 1
            }
            s[qi] = (s[qi] & ~(1L << i)) | (q << i);
        }
    }

    /** x = (x << 1) | in over n limbs; returns the bit shifted out of the top. */
    private static long shiftLeft1(long[] x, int off, int n, long in) {
        for (int i = 0; i < n; i++) {
            long v = x[off + i];
            x[off + i] = (v << 1) | in;
            in = v >>> 63;
        }
        return in;
    }

    /** x -= y over n limbs (mod 2^(64n)). */
    private static void subLimbs(long[] x, int xoff, long[] y, int yoff, int n) {
        long borrow = 0L;
        for (int i = 0; i < n; i++) {
            long p = x[xoff + i];
            long q = y[yoff + i];
            long s = p - q - borrow;
            borrow = ((~p & q) | ((~p | q) & s)) >>> 63;
            x[xoff + i] = s;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Shifts
    // ------------------------------------------------------------------------------------------

    /**
     * {@code d = (a << amount) mod 2^dw}; {@code amount} is unsigned (see class doc).
     * {@code d} may alias {@code a}.
     */
    public static void shl(long[] d, int doff, int dw, long[] a, int aoff, int aw, long amount) {
        if (amount < 0L || amount >= dw) {
            zero(d, doff, dw);
            return;
        }
        int s = (int) amount;
        int ls = s >>> 6;
        int bs = s & 63;
        int na = limbs(aw);
        // Top-down so that an aliased source limb is read before it is overwritten.
        for (int i = limbs(dw) - 1; i >= ls; i--) {
            int k = i - ls;
            long hi = k < na ? a[aoff + k] : 0L;
            long lo = k >= 1 && k <= na ? a[aoff + k - 1] : 0L;
            d[doff + i] = (hi << bs) | ((lo >>> 1) >>> (63 - bs)); // lo >>> (64-bs), 0 if bs == 0
        }
        fill(d, doff, ls, 0L);
        mask(d, doff, dw);
    }

    /**
     * Right shift of the {@code aw}-bit value {@code a} by {@code amount} (unsigned, see class
     * doc), computed in {@code aw} bits and then resized to {@code dw} bits. Arithmetic shifts
     * fill with (and sign-extend by) the sign bit, logical shifts with zeros.
     * {@code d} may alias {@code a}.
     */
    public static void shr(long[] d, int doff, int dw, long[] a, int aoff, int aw, long amount,
                           boolean arithmetic) {
        int na = limbs(aw);
        long fill = arithmetic ? -signBit(a, aoff, aw) : 0L;
        long top = topExtended(a, aoff, aw, fill);
        int s = (amount < 0L || amount >= aw) ? aw : (int) amount;
        int ls = s >>> 6;
        int bs = s & 63;
        // Bottom-up so that an aliased source limb is read before it is overwritten.
        int nd = limbs(dw);
        for (int i = 0; i < nd; i++) {
            long lo = limbExt(a, aoff, na, top, fill, i + ls);
            long hi = limbExt(a, aoff, na, top, fill, i + ls + 1);
            d[doff + i] = (lo >>> bs) | ((hi << 1) << (63 - bs)); // hi << (64-bs), 0 if bs == 0
        }
        mask(d, doff, dw);
    }

    // ------------------------------------------------------------------------------------------
    // Bit fields and concatenation
    // ------------------------------------------------------------------------------------------

    /**
     * Bits {@code lo .. lo+width-1} of {@code a} as a canonical long, {@code 1 <= width <= 64}.
     * Requires {@code lo + width <= } the width of {@code a}.
     */
    public static long extract(long[] a, int aoff, int lo, int width) {
        int l = lo >>> 6;
        int b = lo & 63;
        long v = a[aoff + l] >>> b;
        if (b + width > 64) {                // implies b > 0
            v |= a[aoff + l + 1] << (64 - b);
        }
        return v & maskOf(width);
    }

    /**
     * {@code d = bits lo .. lo+dw-1 of a}. Requires {@code lo + dw <= } the width of {@code a}.
     * {@code d} may alias {@code a}.
     */
    public static void extractWide(long[] d, int doff, int dw, long[] a, int aoff, int lo) {
        shr(d, doff, dw, a, aoff, lo + dw, lo, false);
    }

    /**
     * ORs the canonical {@code xw}-bit value {@code x} ({@code 1 <= xw <= 64}) into {@code d} at
     * bit {@code lo}; {@code d} must be wide enough and zero in that field (typically pre-zeroed
     * with {@link #zero} when building a concatenation).
     */
    public static void insert(long[] d, int doff, int lo, long x, int xw) {
        int l = lo >>> 6;
        int b = lo & 63;
        d[doff + l] |= x << b;
        if (b + xw > 64) {                   // implies b > 0
            d[doff + l + 1] |= x >>> (64 - b);
        }
    }

    /**
     * ORs the {@code aw}-bit value {@code a} into {@code d} at bit {@code lo}; requirements as for
     * {@link #insert}. <b>{@code d} must not alias or overlap {@code a}.</b>
     */
    public static void insertWide(long[] d, int doff, int lo, long[] a, int aoff, int aw) {
        int na = limbs(aw);
        int l = doff + (lo >>> 6);
        int b = lo & 63;
        for (int i = 0; i < na; i++) {
            long v = a[aoff + i];
            d[l + i] |= v << b;
            if (b != 0 && (i << 6) + 64 - b < aw) {   // upper part holds real bits of a
                d[l + i + 1] |= v >>> (64 - b);
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Comparisons and reductions
    // ------------------------------------------------------------------------------------------

    /** Whether limbs {@code [off, off+n)} differ from their copy at {@code shadow}; the copy is brought up to date. */
    public static boolean changed(long[] w, int off, int shadow, int n) {
        boolean changed = false;
        for (int i = 0; i < n; i++) {
            long x = w[off + i];
            if (w[shadow + i] != x) {
                w[shadow + i] = x;
                changed = true;
            }
        }
        return changed;
    }

    /** {@code a == b} for two {@code w}-bit values. */
    public static boolean eq(long[] a, int aoff, long[] b, int boff, int w) {
        int n = limbs(w);
        for (int i = 0; i < n; i++) {
            if (a[aoff + i] != b[boff + i]) {
                return false;
            }
        }
        return true;
    }

    /** Unsigned {@code a < b} for two {@code w}-bit values. */
    public static boolean ltu(long[] a, int aoff, long[] b, int boff, int w) {
        return ltLimbs(a, aoff, b, boff, limbs(w));
    }

    /** Signed (two's complement) {@code a < b} for two {@code w}-bit values. */
    public static boolean lts(long[] a, int aoff, long[] b, int boff, int w) {
        long sa = signBit(a, aoff, w);
        long sb = signBit(b, boff, w);
        if (sa != sb) {
            return sa != 0L;                 // the negative one is smaller
        }
        return ltLimbs(a, aoff, b, boff, limbs(w));
    }

    private static boolean ltLimbs(long[] a, int aoff, long[] b, int boff, int n) {
        for (int i = n - 1; i >= 0; i--) {
            long x = a[aoff + i];
            long y = b[boff + i];
            if (x != y) {
                return Long.compareUnsigned(x, y) < 0;
            }
        }
        return false;
    }

    /** Whether the {@code w}-bit value {@code a} is zero. */
    public static boolean isZero(long[] a, int aoff, int w) {
        int n = limbs(w);
        for (int i = 0; i < n; i++) {
            if (a[aoff + i] != 0L) {
                return false;
            }
        }
        return true;
    }

    /** OR of all bits ({@code a != 0}). */
    public static boolean orReduce(long[] a, int aoff, int w) {
        return !isZero(a, aoff, w);
    }

    /** AND of all {@code w} bits ({@code a} is all ones). */
    public static boolean andReduce(long[] a, int aoff, int w) {
        int n = limbs(w);
        for (int i = 0; i < n - 1; i++) {
            if (a[aoff + i] != -1L) {
                return false;
            }
        }
        return a[aoff + n - 1] == maskOf(topBits(w));
    }

    /** XOR of all bits (odd parity). */
    public static boolean xorReduce(long[] a, int aoff, int w) {
        int n = limbs(w);
        long x = 0L;
        for (int i = 0; i < n; i++) {
            x ^= a[aoff + i];
        }
        return (Long.bitCount(x) & 1) != 0;
    }

    /** Parity of {@code a & b} without storing the AND. */
    public static boolean andParity(long[] a, int aoff, long[] b, int boff, int w) {
        int n = limbs(w);
        long x = 0L;
        for (int i = 0; i < n; i++) {
            x ^= a[aoff + i] & b[boff + i];
        }
        return (Long.bitCount(x) & 1) != 0;
    }

    /** Number of set bits. */
    public static int popCount(long[] a, int aoff, int w) {
        int n = limbs(w);
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += Long.bitCount(a[aoff + i]);
        }
        return c;
    }

    /** Bit {@code i} of the {@code w}-bit value {@code a}; false when {@code i < 0 || i >= w}. */
    public static boolean bit(long[] a, int aoff, int w, long i) {
        if (i < 0L || i >= w) {
            return false;
        }
        return ((a[aoff + (int) (i >>> 6)] >>> i) & 1L) != 0L;
    }

    // ------------------------------------------------------------------------------------------
    // Conversions (not for the hot path; these allocate)
    // ------------------------------------------------------------------------------------------

    /** The {@code w}-bit value {@code a} as a BigInteger, two's complement if {@code signed}. */
    public static BigInteger toBigInteger(long[] a, int aoff, int w, boolean signed) {
        int n = limbs(w);
        byte[] bytes = new byte[8 * n + 1];  // big-endian, leading 0 byte keeps it non-negative
        for (int i = 0; i < n; i++) {
            long v = a[aoff + i];
            int base = 8 * (n - i);
            for (int k = 0; k < 8; k++) {
                bytes[base - k] = (byte) (v >>> (8 * k));
            }
        }
        BigInteger u = new BigInteger(bytes);
        return signed && signBit(a, aoff, w) != 0L ? u.subtract(BigInteger.ONE.shiftLeft(w)) : u;
    }

    /** {@code d = x mod 2^dw} (two's complement truncation; {@code x} may be negative). */
    public static void fromBigInteger(long[] d, int doff, int dw, BigInteger x) {
        int n = limbs(dw);
        for (int i = 0; i < n; i++) {
            d[doff + i] = x.shiftRight(64 * i).longValue();
        }
        mask(d, doff, dw);
    }

    /** Binary digits of the {@code w}-bit value {@code a}, without leading zeros ("0" for zero). */
    public static String toBinary(long[] a, int aoff, int w) {
        int len = bitLength(a, aoff, limbs(w));
        if (len == 0) {
            return "0";
        }
        StringBuilder sb = new StringBuilder(len);
        for (int i = len - 1; i >= 0; i--) {
            sb.append((char) ('0' + ((a[aoff + (i >>> 6)] >>> i) & 1L)));
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------------
    // Narrow (<= 64-bit) helpers. Values are canonical: bits above their width are zero.
    // ------------------------------------------------------------------------------------------

    /** Sign-extends the canonical {@code w}-bit value {@code x} ({@code 1 <= w <= 64}) to 64 bits. */
    public static long sext(long x, int w) {
        int s = 64 - w;
        return (x << s) >> s;
    }

    /** {@code (x << amt) mod 2^dw} for {@code dw <= 64}; {@code amt} unsigned, may be >= 64. */
    public static long shlN(long x, long amt, int dw) {
        return (amt < 0L || amt >= dw) ? 0L : (x << amt) & maskOf(dw);
    }

    /** Logical {@code x >>> amt}; {@code amt} unsigned, may be >= 64 (result 0). */
    public static long shrN(long x, long amt) {
        return (amt < 0L || amt >= 64L) ? 0L : x >>> amt;
    }

    /**
     * Arithmetic right shift of the signed {@code xw}-bit value {@code x} by {@code amt}
     * (unsigned, may be >= 64), sign-extended or truncated to {@code dw <= 64} bits.
     */
    public static long sraN(long x, int xw, long amt, int dw) {
        int s = (amt < 0L || amt > 63L) ? 63 : (int) amt;
        return (sext(x, xw) >> s) & maskOf(dw);
    }

    /** Unsigned 64-bit division; division by zero yields 0. */
    public static long divU(long a, long b) {
        return b == 0L ? 0L : Long.divideUnsigned(a, b);
    }

    /** Unsigned 64-bit remainder; remainder by zero yields 0. */
    public static long remU(long a, long b) {
        return b == 0L ? 0L : Long.remainderUnsigned(a, b);
    }

    /**
     * Signed division of the {@code aw}-bit value {@code a} by the {@code bw}-bit value {@code b}
     * (truncating toward zero), result truncated to {@code dw <= 64} bits; by zero yields 0.
     * {@code MIN / -1} wraps (its true value needs 65 bits, use {@link #div} for that).
     */
    public static long divS(long a, int aw, long b, int bw, int dw) {
        long x = sext(a, aw);
        long y = sext(b, bw);
        return y == 0L ? 0L : (x / y) & maskOf(dw); // Java: Long.MIN_VALUE / -1 == Long.MIN_VALUE
    }

    /**
     * Signed remainder (sign of the dividend) of the {@code aw}-bit {@code a} by the
     * {@code bw}-bit {@code b}, truncated to {@code dw <= 64} bits; by zero yields 0.
     */
    public static long remS(long a, int aw, long b, int bw, int dw) {
        long x = sext(a, aw);
        long y = sext(b, bw);
        return y == 0L ? 0L : (x % y) & maskOf(dw); // Java: Long.MIN_VALUE % -1 == 0
    }

    /** High 64 bits of the unsigned 128-bit product {@code x * y} (Java 18's unsignedMultiplyHigh). */
    public static long mulHighU(long x, long y) {
        return Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
    }

    // ------------------------------------------------------------------------------------------
    // Internals
    // ------------------------------------------------------------------------------------------

    /** Number of value bits in the top limb of a {@code w}-bit value (1..64). */
    private static int topBits(int w) {
        return w - ((limbs(w) - 1) << 6);
    }

    /** Sign bit (bit w-1) of a w-bit value, as 0 or 1. */
    private static long signBit(long[] a, int aoff, int w) {
        return (a[aoff + ((w - 1) >>> 6)] >>> (w - 1)) & 1L; // shift distance is taken mod 64
    }

    /** The top limb of a w-bit value with the bits above w replaced by {@code fill} (0 or -1). */
    private static long topExtended(long[] a, int aoff, int w, long fill) {
        return a[aoff + limbs(w) - 1] | (fill & ~maskOf(topBits(w)));
    }

    /** Limb k of the infinite extension of an n-limb value whose top limb is {@code top}. */
    private static long limbExt(long[] a, int aoff, int n, long top, long fill, int k) {
        return k < n - 1 ? a[aoff + k] : (k == n - 1 ? top : fill);
    }

    private static int bitLength(long[] a, int aoff, int n) {
        for (int i = n - 1; i >= 0; i--) {
            long v = a[aoff + i];
            if (v != 0L) {
                return (i << 6) + 64 - Long.numberOfLeadingZeros(v);
            }
        }
        return 0;
    }

    private static void fill(long[] d, int doff, int n, long v) {
        for (int i = 0; i < n; i++) {
            d[doff + i] = v;
        }
    }
}
