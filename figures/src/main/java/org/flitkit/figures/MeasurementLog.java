package org.flitkit.figures;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The committed record of the figures' model values ({@code measurements.csv}: id, value, date, command),
 * from which the figure table is written. Re-measuring part of the figures replaces those rows only: the
 * others keep their values and dates.
 */
public final class MeasurementLog {
    static final String FILE = "measurements.csv";
    static final String HEADER = "id,value,measured,command";

    private MeasurementLog() {
    }

    /** The log in {@code dir}, by figure id; empty when there is none yet. */
    public static Map<String, LastMeasured> read(Path dir) {
        Path f = dir.resolve(FILE);
        if (!Files.exists(f)) {
            return new LinkedHashMap<>();
        }
        try {
            return parse(Files.readString(f, StandardCharsets.UTF_8), f.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
    }

    static Map<String, LastMeasured> parse(String text, String where) {
        List<String> lines = text.lines().toList();
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IllegalArgumentException(where + ":1: expected the header '" + HEADER + "'");
        }
        Map<String, LastMeasured> log = new LinkedHashMap<>();
        for (int i = 1; i < lines.size(); i++) {
            String at = where + ":" + (i + 1);
            String[] f = lines.get(i).split(",", -1);
            if (f.length != 4) {
                throw new IllegalArgumentException(at + ": expected 4 fields (" + HEADER + "), got " + f.length);
            }
            LocalDate date;
            try {
                date = LocalDate.parse(f[2]);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(at + ": not a date (YYYY-MM-DD): '" + f[2] + "'");
            }
            if (log.put(f[0], new LastMeasured(f[0], Numbers.parse(f[1], at), date, f[3])) != null) {
                throw new IllegalArgumentException(at + ": figure " + f[0] + " appears twice");
            }
        }
        return log;
    }

    /** The CSV text of {@code rows}, in the given order. */
    public static String csv(Collection<LastMeasured> rows) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (LastMeasured m : rows) {
            sb.append(m.id()).append(',').append(Numbers.plain(m.value())).append(',').append(m.date()).append(',').append(m.command())
                    .append('\n');
        }
        return sb.toString();
    }
}
