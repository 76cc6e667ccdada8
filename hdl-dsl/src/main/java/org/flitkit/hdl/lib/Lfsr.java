package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;

/**
 * Maximal-length linear feedback shift registers (period 2^width - 1, never zero) for widths 2..64,
 * as a register in the current module that steps while {@code enable} is high (chisel3.util.random).
 * Taps are those of Xilinx XAPP052 ("Efficient Shift Registers, LFSR Counters, and Long Pseudo-Random
 * Sequence Generators", table 3), used with XOR feedback; the seed must be non-zero.
 */
public final class Lfsr {
    /** XAPP052 taps by width (bit positions counted from 1; the first is always the width). */
    private static final int[][] TAPS = {
        null, null, {2, 1}, {3, 2}, {4, 3}, {5, 3}, {6, 5}, {7, 6}, {8, 6, 5, 4}, {9, 5}, {10, 7},
        {11, 9}, {12, 6, 4, 1}, {13, 4, 3, 1}, {14, 5, 3, 1}, {15, 14}, {16, 15, 13, 4}, {17, 14}, {18, 11},
        {19, 6, 2, 1}, {20, 17}, {21, 19}, {22, 21}, {23, 18}, {24, 23, 22, 17}, {25, 22}, {26, 6, 2, 1},
        {27, 5, 2, 1}, {28, 25}, {29, 27}, {30, 6, 4, 1}, {31, 28}, {32, 22, 2, 1}, {33, 20}, {34, 27, 2, 1},
        {35, 33}, {36, 25}, {37, 5, 4, 3, 2, 1}, {38, 6, 5, 1}, {39, 35}, {40, 38, 21, 19}, {41, 38},
        {42, 41, 20, 19}, {43, 42, 38, 37}, {44, 43, 18, 17}, {45, 44, 42, 41}, {46, 45, 26, 25}, {47, 42},
        {48, 47, 21, 20}, {49, 40}, {50, 49, 24, 23}, {51, 50, 36, 35}, {52, 49}, {53, 52, 38, 37},
        {54, 53, 18, 17}, {55, 31}, {56, 55, 35, 34}, {57, 50}, {58, 39}, {59, 58, 38, 37}, {60, 59},
        {61, 60, 46, 45}, {62, 61, 6, 5}, {63, 62}, {64, 63, 61, 60},
    };

    private Lfsr() {
    }

    /** The taps for {@code width} (positions from 1; feedback polynomial x^w + sum of x^t for the other taps + 1). */
    public static int[] taps(int width) {
        checkWidth(width);
        return TAPS[width].clone();
    }

    /** The taps as a mask: bit t-1 set for each tap t. */
    public static long tapMask(int width) {
        long m = 0;
        for (int t : taps(width)) {
            m |= 1L << (t - 1);
        }
        return m;
    }

    /**
     * Fibonacci form: shifts left, the new bit 0 is the XOR of the tapped bits. Steps while
     * {@code enable} is high; starts from {@code seed} (unsigned, non-zero) after reset.
     */
    public static UInt fibonacci(int width, Bool enable, long seed) {
        UInt state = register(width, seed);
        UInt feedback = state.and(mask(width)).xorR();
        when(enable, () -> state.assign(cat(state.bits(width - 2, 0), feedback)));
        return state;
    }

    public static UInt fibonacci(int width) {
        return fibonacci(width, TRUE(), 1);
    }

    /**
     * Galois form: shifts right and, when the bit shifted out is 1, flips the tapped bits. Steps while
     * {@code enable} is high; starts from {@code seed} (unsigned, non-zero) after reset.
     */
    public static UInt galois(int width, Bool enable, long seed) {
        UInt state = register(width, seed);
        UInt shifted = state.shr(1);
        when(enable, () -> state.assign(mux(state.bit(0), shifted.xor(mask(width)), shifted.pad(width))));
        return state;
    }

    public static UInt galois(int width) {
        return galois(width, TRUE(), 1);
    }

    /** Software model of one {@link #fibonacci} step, for testbenches that predict the sequence. */
    public static long nextFibonacci(int width, long state) {
        long feedback = Long.bitCount(state & tapMask(width)) & 1;
        return (state << 1 | feedback) & widthMask(width);
    }

    /** Software model of one {@link #galois} step. */
    public static long nextGalois(int width, long state) {
        long shifted = state >>> 1;
        return (state & 1) != 0 ? shifted ^ tapMask(width) : shifted;
    }

    private static UInt register(int width, long seed) {
        checkWidth(width);
        if (seed == 0 || (seed & ~widthMask(width)) != 0) {
            throw new HdlException("LFSR seed " + Long.toUnsignedString(seed) + " must be non-zero and fit in " + width + " bits");
        }
        return regInit(UInt(width), lit(new BigInteger(Long.toUnsignedString(seed)), width));
    }

    private static UInt mask(int width) {
        return lit(new BigInteger(Long.toUnsignedString(tapMask(width))), width);
    }

    private static long widthMask(int width) {
        return width == 64 ? -1L : (1L << width) - 1;
    }

    private static void checkWidth(int width) {
        if (width < 2 || width >= TAPS.length) {
            throw new HdlException("LFSR width " + width + " is outside 2.." + (TAPS.length - 1));
        }
    }
}
