package org.flitkit.figures;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/** How figure numbers are written: exactly (CSV files, paper values) or rounded for reading (model values in the table). */
final class Numbers {
    private Numbers() {
    }

    /** The shortest text that reads back as the same double; integers without a decimal point. */
    static String plain(double v) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException("not a finite number: " + v);
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** Two decimals but at least three significant digits, trailing zeros dropped: 121.66, 0.9, 1.01, 0.00123. */
    static String display(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return plain(v);
        }
        int intDigits = Math.max(0, (int) Math.floor(Math.log10(Math.abs(v))) + 1);
        BigDecimal d = new BigDecimal(v).round(new MathContext(Math.max(3, intDigits + 2), RoundingMode.HALF_EVEN));
        return d.stripTrailingZeros().toPlainString();
    }

    /** A signed percentage with one decimal: +3.8, -18.9, 0.0. */
    static String percent(double v) {
        String s = String.format(Locale.ROOT, "%+.1f", v);
        return s.equals("-0.0") || s.equals("+0.0") ? "0.0" : s;
    }

    /** Parses what {@link #plain} wrote, with the file and line for a bad number. */
    static double parse(String s, String where) {
        try {
            double v = Double.parseDouble(s.trim());
            if (!Double.isFinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": not a number: '" + s + "'");
        }
    }
}
