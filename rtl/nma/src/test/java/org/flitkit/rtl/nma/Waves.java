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

    /** The core clock period of {@code p} in picoseconds. */
    static long periodPs(EepParams p) {
        return Math.round(1e12 / p.coreHz());
    }

    static Path dir() {
        String d = System.getProperty("flitkit.vcd");
        return d == null || d.isEmpty() ? null : Path.of(d);
    }

    private static final java.util.concurrent.atomic.AtomicInteger SEQ = new java.util.concurrent.atomic.AtomicInteger();

    /** Starts a dump with a 10 ns clock period. */
    static void maybeStart(Simulator sim, String name) {
        maybeStart(sim, name, 10_000);
    }

    /** Starts a dump named {@code <name>-<n>.vcd} (n counts dumps in this JVM) with the given clock period. */
    static void maybeStart(Simulator sim, String name, long periodPs) {
        Path d = dir();
        if (d == null) {
            return;
        }
        try {
            Files.createDirectories(d);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sim.startVcd(d.resolve(name + "-" + SEQ.incrementAndGet() + ".vcd"), periodPs);
    }
}
