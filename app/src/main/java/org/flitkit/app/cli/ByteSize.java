package org.flitkit.app.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Byte counts as people type and read them: {@code 1048576}, {@code 500K}, {@code 1M}, {@code 4G}
 * (powers of 1024, case-insensitive, an optional trailing {@code B}), shown back as {@code 1 MB} or
 * {@code 20.8 MB}.
 */
final class ByteSize implements ITypeConverter<Long> {
    private static final String[] UNITS = {"bytes", "kB", "MB", "GB", "TB"};
    private static final String SUFFIXES = "KMGT";

    static long parse(String text) {
        String t = text.strip().toUpperCase(Locale.ROOT);
        if (t.endsWith("B")) {
            t = t.substring(0, t.length() - 1);
        }
        int shift = 0;
        if (!t.isEmpty() && SUFFIXES.indexOf(t.charAt(t.length() - 1)) >= 0) {
            shift = 10 * (SUFFIXES.indexOf(t.charAt(t.length() - 1)) + 1);
            t = t.substring(0, t.length() - 1);
        }
        if (!t.matches("[0-9]{1,15}")) {
            throw new IllegalArgumentException("'" + text + "' is not a size; use bytes or a number with K, M or G, e.g. 500K, 1M, 4G");
        }
        long n = Long.parseLong(t);
        if (n == 0 || n > Long.MAX_VALUE >> shift) {
            throw new IllegalArgumentException("size '" + text + "' must be at least 1 byte and below 8 EB");
        }
        return n << shift;
    }

    /** Whole units when exact ({@code 1 MB}), else one decimal of the largest unit below it ({@code 20.8 MB}). */
    static String format(long bytes) {
        int unit = 0;
        while (unit + 1 < UNITS.length && bytes >= 1L << (10 * (unit + 1))) {
            unit++;
        }
        long scale = 1L << (10 * unit);
        return bytes % scale == 0 ? bytes / scale + " " + UNITS[unit]
                : String.format(Locale.ROOT, "%.1f %s", (double) bytes / scale, UNITS[unit]);
    }

    @Override
    public Long convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
