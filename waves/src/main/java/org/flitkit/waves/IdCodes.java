package org.flitkit.waves;

import java.nio.charset.StandardCharsets;

/**
 * VCD identifier codes in bijective base 94 over the printable ASCII range {@code '!'..'~'}: the
 * first 94 signals get one character, the next 8836 two, and so on. Short codes matter because a
 * code is repeated on every value change in the file.
 */
final class IdCodes {
    static final int FIRST = 33;
    static final int RADIX = 94;

    private IdCodes() {
    }

    /** Code for signal number {@code n >= 0}; distinct numbers always give distinct codes. */
    static String encode(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("signal number must be non-negative, got " + n);
        }
        StringBuilder sb = new StringBuilder(4);
        long rest = n;
        do {
            sb.append((char) (FIRST + rest % RADIX));
            rest = rest / RADIX - 1;
        } while (rest >= 0);
        return sb.toString();
    }

    static byte[] encodeBytes(int n) {
        return encode(n).getBytes(StandardCharsets.US_ASCII);
    }
}
