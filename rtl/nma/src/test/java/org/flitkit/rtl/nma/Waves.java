package org.flitkit.rtl.nma;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flitkit.hdl.sim.Simulator;

/**
 * Optional VCD dumping for the E2PROM testbenches: run with {@code -Dflitkit.vcd=DIR} and each simulator
 * started through {@link #maybeStart} writes {@code DIR/<name>.vcd}.
 */
final class Waves {
    private Waves() {
    }

    static Path dir() {
        String d = System.getProperty("flitkit.vcd");
        return d == null || d.isEmpty() ? null : Path.of(d);
    }

    static void maybeStart(Simulator sim, String name) {
        Path d = dir();
        if (d == null) {
            return;
        }
        try {
            Files.createDirectories(d);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sim.startVcd(d.resolve(name + ".vcd"));
    }
}
