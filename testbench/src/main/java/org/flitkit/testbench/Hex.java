package org.flitkit.testbench;

import java.math.BigInteger;

/** Fixed-width hex for messages: {@code 0x00ab} for a 16-bit value, so equal-width values line up. */
public final class Hex {
    private Hex() {
    }

    public static String of(BigInteger v, int width) {
        String h = v.toString(16);
        int digits = (width + 3) / 4;
        return "0x" + "0".repeat(Math.max(0, digits - h.length())) + h;
    }
}
