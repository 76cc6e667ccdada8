package org.flitkit.formats.th2;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;

/**
 * E2PROM-access NMPData: 1 to 6 independent 16-bit byte addresses into the 64 KB E2PROM
 * and, for write requests and read responses, one data byte per address.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public record EepromPayload(List<Integer> addresses, List<Integer> data) implements NmpPayload {

    private static final PayloadLayouts.EepromAccess L = PayloadLayouts.EEPROM;

    public EepromPayload {
        if (addresses == null || addresses.isEmpty() || addresses.size() > Th2.MAX_EEPROM_BYTES) {
            throw new IllegalArgumentException("E2PROM count must be 1..6, got "
                    + (addresses == null ? 0 : addresses.size()));
        }
        for (Integer a : addresses) {
            if (a == null || a < 0 || a > 0xFFFF) {
                throw new IllegalArgumentException("E2PROM address " + a + " does not fit 16 bits (0..0xffff)");
            }
        }
        if (data == null) {
            data = List.of();
        }
        if (!data.isEmpty() && data.size() != addresses.size()) {
            throw new IllegalArgumentException("E2PROM data count " + data.size() + " differs from address count "
                    + addresses.size());
        }
        for (Integer b : data) {
            if (b == null || b < 0 || b > 0xFF) {
                throw new IllegalArgumentException("E2PROM data byte " + b + " outside 0..255");
            }
        }
        addresses = List.copyOf(addresses);
        data = List.copyOf(data);
    }

    /** Read request (or write response) for 1..6 bytes. */
    public static EepromPayload of(Integer... addresses) {
        return new EepromPayload(List.of(addresses), List.of());
    }

    public int count() {
        return addresses.size();
    }

    /** The same addresses with these bytes: how a read response is built from a read request. */
    public EepromPayload answeredWith(List<Integer> bytes) {
        return new EepromPayload(addresses, bytes);
    }

    /** The same addresses without data: how a write response is built from a write request. */
    public EepromPayload withoutData() {
        return new EepromPayload(addresses, List.of());
    }

    @Override
    public void checkFits(NmpType type, ChipType chip) {
        if (type.target() != NmpType.Target.EEPROM || type.isError()) {
            throw new IllegalArgumentException("an E2PROM payload does not suit NMPType " + type);
        }
        if (type.carriesData() != !data.isEmpty()) {
            throw new IllegalArgumentException(type + (type.carriesData() ? " needs" : " carries no")
                    + " E2PROM data, got " + data.size() + " byte(s)");
        }
    }

    @Override
    public BitVector encode() {
        return AddressedPayloads.encode(L, addresses, data);
    }

    static EepromPayload decode(NmpType type, BitVector bits) {
        List<Integer> addresses = new ArrayList<>();
        List<Long> data = new ArrayList<>();
        AddressedPayloads.decode(L, "bad E2PROM count %d (must be 1..6)", type, bits,
                addresses, data);
        return new EepromPayload(addresses, data.stream().map(Long::intValue).toList());
    }
}
