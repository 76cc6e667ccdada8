package org.flitkit.rtl.nrc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flitkit.hdl.sim.Simulator;

/** Where unit tests leave their waveforms: {@code rtl/nrc/target/waves/NAME.vcd}. */
final class Waves {
    private Waves() {
    }

    static Path start(Simulator sim, String name) {
        try {
            Path dir = Path.of("target", "waves");
            Files.createDirectories(dir);
            Path vcd = dir.resolve(name + ".vcd");
            sim.startVcd(vcd);
            return vcd;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
