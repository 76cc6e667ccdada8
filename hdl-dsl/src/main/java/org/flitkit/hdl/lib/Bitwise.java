package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;

/**
 * Elaboration-time arithmetic ({@code log2Ceil}, like chisel3.util) and bit-level hardware helpers:
 * {@link #PopCount}, {@link #Reverse}, and splitting a value into its bits. Meant for
 * {@code import static org.flitkit.hdl.lib.Bitwise.*}.
 */
public final class Bitwise {
    private Bitwise() {
    }

    /** Bits needed to hold {@code n} distinct values: ceil(log2(n)), 0 for n = 1 (Chisel's log2Ceil). */
    public static int log2Ceil(long n) {
        if (n < 1) {
            throw new HdlException("log2Ceil(" + n + "): argument must be at least 1");
        }
        return 64 - Long.numberOfLeadingZeros(n - 1);
    }

    /** Like {@link #log2Ceil} but at least 1: the width of a signal indexing {@code n} things (Chisel's log2Up). */
    public static int log2Up(long n) {
        return Math.max(1, log2Ceil(n));
    }

    public static boolean isPow2(long n) {
        return n > 0 && (n & (n - 1)) == 0;
    }

    /** The bits of {@code x}, least significant first. */
    public static List<Bool> asBools(UInt x) {
        List<Bool> out = new ArrayList<>(x.width());
        for (int i = 0; i < x.width(); i++) {
            out.add(x.bit(i));
        }
        return out;
    }

    /** Bools packed into a UInt, element 0 in the least significant position (Chisel's {@code VecInit(bs).asUInt}). */
    public static UInt fromBools(List<Bool> bools) {
        if (bools.isEmpty()) {
            throw new HdlException("fromBools of an empty list");
        }
        List<Bool> msbFirst = new ArrayList<>(bools);
        Collections.reverse(msbFirst);
        return cat(msbFirst);
    }

    /** Number of set bits, from a balanced adder tree; log2Up(n + 1) bits wide. */
    public static UInt PopCount(List<Bool> bits) {
        if (bits.isEmpty()) {
            throw new HdlException("PopCount of an empty list");
        }
        UInt sum = reduceTree(new ArrayList<UInt>(bits), UInt::addW);
        int w = log2Up(bits.size() + 1);
        return sum.width() > w ? sum.trunc(w) : sum;
    }

    public static UInt PopCount(UInt x) {
        return PopCount(asBools(x));
    }

    /** {@code x} with its bit order reversed. */
    public static UInt Reverse(UInt x) {
        return cat(asBools(x));
    }
}
