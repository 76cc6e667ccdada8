package org.flitkit.testbench.scoreboard;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * How a scoreboard shows integer items: in hex, since a wrong tag or a flipped bit reads there and not in
 * decimal ({@code 0x7a} against {@code 0x27a}), and, for a mismatch, which bits differ and their XOR mask.
 * Lists of integers (packets of beats) are shown element by element, the first differing element named.
 */
final class BitDiff {
    /** At most this many bit positions or ranges are listed; more are summed up as a count. */
    static final int LISTED_RANGES = 8;

    private BitDiff() {
    }

    /** {@code item} in hex when it is an integer or a list of them, else its {@code toString}. */
    static String show(Object item) {
        BigInteger v = integer(item);
        if (v != null) {
            return hex(v);
        }
        if (item instanceof List<?> l && !l.isEmpty() && l.stream().allMatch(e -> integer(e) != null)) {
            return l.stream().map(e -> hex(integer(e))).toList().toString();
        }
        return String.valueOf(item);
    }

    /**
     * One more message line saying where two integers (or two lists of integers) differ, starting with a
     * newline; empty for items of other types and for negative values (whose XOR has no highest bit).
     */
    static String describe(Object expected, Object observed) {
        BigInteger e = integer(expected);
        BigInteger o = integer(observed);
        if (e != null && o != null) {
            String bits = bits(e, o);
            return bits.isEmpty() ? "" : "\n  differs in " + bits;
        }
        if (expected instanceof List<?> le && observed instanceof List<?> lo) {
            return describeLists(le, lo);
        }
        return "";
    }

    private static String describeLists(List<?> expected, List<?> observed) {
        int n = Math.min(expected.size(), observed.size());
        List<Integer> differing = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            BigInteger e = integer(expected.get(i));
            BigInteger o = integer(observed.get(i));
            if (e == null || o == null) {
                return "";
            }
            if (!e.equals(o)) {
                differing.add(i);
            }
        }
        StringBuilder b = new StringBuilder();
        if (expected.size() != observed.size()) {
            b.append("\n  expected ").append(expected.size()).append(" elements, observed ").append(observed.size());
        }
        if (!differing.isEmpty()) {
            int i = differing.get(0);
            BigInteger e = integer(expected.get(i));
            BigInteger o = integer(observed.get(i));
            b.append("\n  element ").append(i).append(": expected ").append(hex(e)).append(" observed ").append(hex(o));
            String bits = bits(e, o);
            if (!bits.isEmpty()) {
                b.append(", differs in ").append(bits);
            }
            if (differing.size() > 1) {
                b.append(" (").append(differing.size() - 1).append(" more element(s) of the first ").append(n).append(" differ)");
            }
        }
        return b.toString();
    }

    /** {@code "bits 0..1, 9 (xor 0x203)"}: the positions where the two differ, lowest first, and the mask. */
    private static String bits(BigInteger e, BigInteger o) {
        BigInteger x = e.xor(o);
        if (x.signum() <= 0) {
            return "";
        }
        List<String> ranges = new ArrayList<>();
        int count = 0;
        for (int lo = x.getLowestSetBit(); lo >= 0; ) {
            int hi = lo;
            while (x.testBit(hi + 1)) {
                hi++;
            }
            count++;
            if (ranges.size() < LISTED_RANGES) {
                ranges.add(hi == lo ? Integer.toString(lo) : lo + ".." + hi);
            }
            BigInteger rest = x.shiftRight(hi + 1);
            lo = rest.signum() == 0 ? -1 : hi + 1 + rest.getLowestSetBit();
        }
        String listed = String.join(", ", ranges) + (count > ranges.size() ? " and " + (count - ranges.size()) + " more run(s)" : "");
        return (x.bitCount() == 1 ? "bit " : "bits ") + listed + " (xor " + hex(x) + ")";
    }

    private static String hex(BigInteger v) {
        return v.signum() < 0 ? "-0x" + v.negate().toString(16) : "0x" + v.toString(16);
    }

    /** The item as a BigInteger when it is an integral number, else null. */
    private static BigInteger integer(Object item) {
        if (item instanceof BigInteger b) {
            return b;
        }
        if (item instanceof Long || item instanceof Integer || item instanceof Short || item instanceof Byte) {
            return BigInteger.valueOf(((Number) item).longValue());
        }
        return null;
    }
}
