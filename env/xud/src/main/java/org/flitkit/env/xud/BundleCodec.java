package org.flitkit.env.xud;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.Data;

/**
 * Packs and unpacks the flat value of a bundle of plain fields in the order {@link org.flitkit.testbench.stream.StreamPort}
 * drives it (first field most significant), by field name, so a driver follows the bundle's definition
 * instead of repeating its widths.
 */
final class BundleCodec {
    private final List<String> names = new ArrayList<>();
    private final List<Integer> widths = new ArrayList<>();
    private final int width;

    BundleCodec(Bundle type) {
        int w = 0;
        for (Map.Entry<String, Data> e : type.elements().entrySet()) {
            if (!(e.getValue() instanceof Bits b)) {
                throw new IllegalArgumentException("field " + e.getKey() + " of " + type.getClass().getSimpleName() + " is not a plain field");
            }
            names.add(e.getKey());
            widths.add(b.width());
            w += b.width();
        }
        width = w;
    }

    /** The flat value of {@code values} given in field order. */
    BigInteger pack(BigInteger... values) {
        if (values.length != names.size()) {
            throw new IllegalArgumentException("expected " + names.size() + " field values " + names + ", got " + values.length);
        }
        BigInteger v = BigInteger.ZERO;
        for (int i = 0; i < values.length; i++) {
            int w = widths.get(i);
            if (values[i].signum() < 0 || values[i].bitLength() > w) {
                throw new IllegalArgumentException("field " + names.get(i) + " is " + w + " bits; 0x" + values[i].toString(16) + " does not fit");
            }
            v = v.shiftLeft(w).or(values[i]);
        }
        return v;
    }

    /** Field {@code name} of the flat value {@code v}. */
    BigInteger get(BigInteger v, String name) {
        int lo = width;
        for (int i = 0; i < names.size(); i++) {
            lo -= widths.get(i);
            if (names.get(i).equals(name)) {
                return v.shiftRight(lo).and(BigInteger.ONE.shiftLeft(widths.get(i)).subtract(BigInteger.ONE));
            }
        }
        throw new IllegalArgumentException("no field " + name + " in " + names);
    }

    static BigInteger big(long v) {
        return BigInteger.valueOf(v);
    }
}
