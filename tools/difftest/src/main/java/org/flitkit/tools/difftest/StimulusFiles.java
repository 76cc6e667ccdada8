package org.flitkit.tools.difftest;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The hex text both reference harnesses read (one line per cycle) and write (one line per cycle). */
final class StimulusFiles {
    private StimulusFiles() {
    }

    static void write(Path file, List<BigInteger[]> rows) {
        try (BufferedWriter w = Files.newBufferedWriter(file)) {
            for (BigInteger[] row : rows) {
                for (int i = 0; i < row.length; i++) {
                    w.write(i == 0 ? "" : " ");
                    w.write(row[i].toString(16));
                }
                w.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses output lines; a value that is not hex (x or z from a four-state simulator) is an error. */
    static List<BigInteger[]> read(String text, int columns, String tool) {
        List<BigInteger[]> rows = new ArrayList<>();
        for (String line : text.split("\n")) {
            line = line.trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length != columns) {
                throw new IllegalStateException(tool + " printed " + parts.length + " values where " + columns + " were expected: " + line);
            }
            BigInteger[] row = new BigInteger[columns];
            for (int i = 0; i < columns; i++) {
                try {
                    row[i] = new BigInteger(parts[i], 16);
                } catch (NumberFormatException e) {
                    throw new IllegalStateException(tool + " printed a non-binary value '" + parts[i] + "' (X or Z) in: " + line);
                }
            }
            rows.add(row);
        }
        return rows;
    }
}
