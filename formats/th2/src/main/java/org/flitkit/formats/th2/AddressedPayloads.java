package org.flitkit.formats.th2;

import java.util.List;

/**
 * The Count / Addr<i>i</i> / data-<i>i</i> encoding shared by {@link RegisterPayload} and
 * {@link EepromPayload}.
 * Spec: shared/spec/20-th2-management.md, "Management packets and descriptors".
 */
final class AddressedPayloads {

    private AddressedPayloads() {
    }

    /** Count, the addresses and, if any, one data value per address. */
    static BitVector encode(Layout l, String dataField, List<Integer> addresses, List<? extends Number> data) {
        BitVector v = l.zero().with(l.field("Count"), addresses.size());
        for (int i = 0; i < addresses.size(); i++) {
            v = v.with(l.field("Addr" + i), addresses.get(i));
        }
        for (int i = 0; i < data.size(); i++) {
            v = v.with(l.field(dataField + i), data.get(i).longValue());
        }
        return v;
    }

    /**
     * Reads Count (1..{@code max}) and that many addresses into {@code addresses} and, if
     * {@code type} carries data, data values into {@code data}; every unused slot must be 0.
     */
    static void decode(Layout l, String dataField, int max, String countError, NmpType type, BitVector bits,
            List<Integer> addresses, List<Long> data) {
        l.requireReservedZero(bits);
        int count = (int) bits.get(l.field("Count"));
        if (count < 1 || count > max) {
            throw new IllegalArgumentException(countError.formatted(count));
        }
        for (int i = 0; i < max; i++) {
            if (i >= count) {
                Checks.requireUnused(l, "Addr" + i, bits, "when Count = " + count);
                Checks.requireUnused(l, dataField + i, bits, "when Count = " + count);
                continue;
            }
            addresses.add((int) bits.get(l.field("Addr" + i)));
            if (type.carriesData()) {
                data.add(bits.get(l.field(dataField + i)));
            } else {
                Checks.requireUnused(l, dataField + i, bits, "in a " + type);
            }
        }
    }
}
