package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;

/**
 * Binary/one-hot conversions and priority encoders, as in chisel3.util: {@link #UIntToOH},
 * {@link #OHToUInt}, {@link #PriorityEncoder}, {@link #PriorityEncoderOH}. Bit 0 has the highest
 * priority. Meant for {@code import static org.flitkit.hdl.lib.OneHot.*}.
 */
public final class OneHot {
    private OneHot() {
    }

    /** One-hot of {@code width} bits with bit {@code in} set (all zero when {@code in >= width}). */
    public static UInt UIntToOH(UInt in, int width) {
        List<Bool> bits = new ArrayList<>(width);
        for (int i = 0; i < width; i++) {
            // an index too wide for `in` can never be selected
            bits.add(i < 1L << Math.min(in.width(), 62) ? in.eq(i) : FALSE());
        }
        return fromBools(bits);
    }

    /** One-hot of 2^in.width bits. */
    public static UInt UIntToOH(UInt in) {
        if (in.width() > 16) {
            throw new HdlException("UIntToOH of a " + in.width() + "-bit value would be 2^" + in.width() + " bits; give the width");
        }
        return UIntToOH(in, 1 << in.width());
    }

    /** Index of the set bit of a one-hot value, log2Up(n) bits wide; undefined (an OR of indices) if not one-hot. */
    public static UInt OHToUInt(List<Bool> oh) {
        int w = log2Up(oh.size());
        List<Bool> out = new ArrayList<>(w);
        for (int j = 0; j < w; j++) {
            List<Bool> withBitJ = new ArrayList<>();
            for (int i = 0; i < oh.size(); i++) {
                if ((i >> j & 1) != 0) {
                    withBitJ.add(oh.get(i));
                }
            }
            out.add(withBitJ.isEmpty() ? FALSE() : fromBools(withBitJ).orR());
        }
        return fromBools(out);
    }

    public static UInt OHToUInt(UInt oh) {
        return OHToUInt(asBools(oh));
    }

    /** Index of the lowest set bit, log2Up(n) bits wide; n-1 when none is set (as Chisel's PriorityEncoder). */
    public static UInt PriorityEncoder(List<Bool> in) {
        int w = log2Up(in.size());
        List<UInt> idx = new ArrayList<>(in.size());
        for (int i = 0; i < in.size(); i++) {
            idx.add(lit(i, w));
        }
        return priorityMux(in, idx);
    }

    public static UInt PriorityEncoder(UInt in) {
        return PriorityEncoder(asBools(in));
    }

    /** Only the lowest set bit kept (all zero when none is set). */
    public static List<Bool> PriorityEncoderOH(List<Bool> in) {
        List<Bool> out = new ArrayList<>(in.size());
        Bool noneBefore = null;
        for (Bool b : in) {
            out.add(noneBefore == null ? b : noneBefore.and(b));
            noneBefore = noneBefore == null ? b.not() : noneBefore.andNot(b);
        }
        return out;
    }

    public static UInt PriorityEncoderOH(UInt in) {
        return fromBools(PriorityEncoderOH(asBools(in)));
    }
}
