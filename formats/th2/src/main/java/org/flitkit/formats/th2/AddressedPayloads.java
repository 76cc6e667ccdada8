package org.flitkit.formats.th2;

import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Layout;

/**
 * The Count / Addr<i>i</i> / data-<i>i</i> encoding shared by {@link RegisterPayload} and
 * {@link EepromPayload}, over the fields of a {@link PayloadLayouts.Addressed} view.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
final class AddressedPayloads {

    private AddressedPayloads() {
    }

    /** Count, the addresses and, if any, one data value per address. */
    static BitVector encode(PayloadLayouts.Addressed view, List<Integer> addresses, List<? extends Number> data) {
        BitVector v = view.zero().with(view.COUNT, addresses.size());
        for (int i = 0; i < addresses.size(); i++) {
            v = v.with(view.addr(i), addresses.get(i));
        }
        for (int i = 0; i < data.size(); i++) {
            v = v.with(view.data(i), data.get(i).longValue());
        }
        return v;
    }

    /**
     * Reads Count (1..capacity) and that many addresses into {@code addresses} and, if
     * {@code type} carries data, data values into {@code data}; every unused slot must be 0.
     */
    static void decode(PayloadLayouts.Addressed view, String countError, NmpType type, BitVector bits,
            List<Integer> addresses, List<Long> data) {
        Layout l = view.layout();
        l.requireReservedZero(bits);
        int count = (int) bits.get(view.COUNT);
        if (count < 1 || count > view.capacity()) {
            throw new IllegalArgumentException(countError.formatted(count));
        }
        for (int i = 0; i < view.capacity(); i++) {
            if (i >= count) {
                Checks.requireUnused(l, view.addr(i), bits, "when Count = " + count);
                Checks.requireUnused(l, view.data(i), bits, "when Count = " + count);
                continue;
            }
            addresses.add((int) bits.get(view.addr(i)));
            if (type.carriesData()) {
                data.add(bits.get(view.data(i)));
            } else {
                Checks.requireUnused(l, view.data(i), bits, "in a " + type);
            }
        }
    }
}
