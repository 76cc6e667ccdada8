package org.flitkit.formats.th2;

import org.flitkit.formats.core.Coded;

/**
 * The two TH-2 chip types and their 2-bit DestType/SrcType codes; register addresses are
 * 12 bits on the NIC and 15 bits on the NRC.
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
public enum ChipType implements Coded {
    NIC(0, 12),
    NRC(1, 15);

    private final int code;
    private final int registerAddressBits;

    ChipType(int code, int registerAddressBits) {
        this.code = code;
        this.registerAddressBits = registerAddressBits;
    }

    @Override
    public int code() {
        return code;
    }

    public int registerAddressBits() {
        return registerAddressBits;
    }

    public int maxRegisterAddress() {
        return (1 << registerAddressBits) - 1;
    }

    public static ChipType fromCode(long code) {
        return Coded.find(values(), code)
                .orElseThrow(() -> new IllegalArgumentException("unknown chip type code " + code + " (0 = NIC, 1 = NRC)"));
    }
}
