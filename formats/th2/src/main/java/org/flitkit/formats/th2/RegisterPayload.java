package org.flitkit.formats.th2;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.core.BitVector;

/**
 * Register-access NMPData: 1 or 2 register addresses (up to 15 bits; 12 on the NIC) and,
 * for write requests and read responses, one 64-bit value per register.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public record RegisterPayload(List<Integer> addresses, List<Long> data) implements NmpPayload {

    private static final PayloadLayouts.RegisterAccess L = PayloadLayouts.REGISTER;
    private static final int MAX_ADDRESS = (1 << L.addr(0).width()) - 1;

    public RegisterPayload {
        if (addresses == null || addresses.isEmpty() || addresses.size() > Th2.MAX_REGISTERS) {
            throw new IllegalArgumentException("register count must be 1 or 2, got "
                    + (addresses == null ? 0 : addresses.size()));
        }
        for (Integer a : addresses) {
            if (a == null || a < 0 || a > MAX_ADDRESS) {
                throw new IllegalArgumentException("register address " + hex(a) + " does not fit 15 bits (max 0x7fff)");
            }
        }
        if (data == null) {
            data = List.of();
        }
        if (!data.isEmpty() && data.size() != addresses.size()) {
            throw new IllegalArgumentException("register data count " + data.size() + " differs from address count "
                    + addresses.size());
        }
        addresses = List.copyOf(addresses);
        data = List.copyOf(data);
    }

    /** Read request (or write response) for 1 or 2 registers. */
    public static RegisterPayload of(Integer... addresses) {
        return new RegisterPayload(List.of(addresses), List.of());
    }

    /** Write request (or read response) for one register. */
    public static RegisterPayload withData(int address, long value) {
        return new RegisterPayload(List.of(address), List.of(value));
    }

    /** Write request (or read response) for two registers. */
    public static RegisterPayload withData(int address0, long value0, int address1, long value1) {
        return new RegisterPayload(List.of(address0, address1), List.of(value0, value1));
    }

    public int count() {
        return addresses.size();
    }

    /** The same addresses with these values: how a read response is built from a read request. */
    public RegisterPayload answeredWith(List<Long> values) {
        return new RegisterPayload(addresses, values);
    }

    /** The same addresses without data: how a write response is built from a write request. */
    public RegisterPayload withoutData() {
        return new RegisterPayload(addresses, List.of());
    }

    @Override
    public void checkFits(NmpType type, ChipType chip) {
        if (type.target() != NmpType.Target.REGISTER || type.isError()) {
            throw new IllegalArgumentException("a register payload does not suit NMPType " + type);
        }
        if (type.carriesData() != !data.isEmpty()) {
            throw new IllegalArgumentException(type + (type.carriesData() ? " needs" : " carries no")
                    + " register data, got " + data.size() + " value(s)");
        }
        for (int a : addresses) {
            if (a > chip.maxRegisterAddress()) {
                throw new IllegalArgumentException("register address " + hex(a) + " too wide for " + chip + " ("
                        + chip.registerAddressBits() + " bits, max " + hex(chip.maxRegisterAddress()) + ")");
            }
        }
    }

    @Override
    public BitVector encode() {
        return AddressedPayloads.encode(L, addresses, data);
    }

    static RegisterPayload decode(NmpType type, BitVector bits) {
        List<Integer> addresses = new ArrayList<>();
        List<Long> data = new ArrayList<>();
        AddressedPayloads.decode(L, "bad register count %d (must be 1 or 2)", type, bits,
                addresses, data);
        return new RegisterPayload(addresses, data);
    }

    private static String hex(Integer v) {
        return v == null ? "null" : "0x" + Integer.toHexString(v);
    }
}
