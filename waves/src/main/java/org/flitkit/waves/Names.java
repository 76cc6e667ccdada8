package org.flitkit.waves;

/**
 * Maps user-supplied scope and signal names onto the identifier alphabet every VCD consumer
 * understands. Dots, brackets and whitespace would otherwise be misread as hierarchy separators,
 * bit ranges or token boundaries by GTKWave and by {@link VcdReader}.
 */
final class Names {
    private Names() {
    }

    /** Replaces every character outside {@code [A-Za-z0-9_$]} with {@code '_'}. */
    static String sanitise(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name must not be null or empty");
        }
        char[] out = name.toCharArray();
        for (int i = 0; i < out.length; i++) {
            if (!isIdentifierChar(out[i])) {
                out[i] = '_';
            }
        }
        return new String(out);
    }

    private static boolean isIdentifierChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
    }
}
