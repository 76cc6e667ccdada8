package org.flitkit.app.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.ProgressListener;
import org.flitkit.testbench.RunConfig;
import org.flitkit.waves.VcdLimitExceeded;
import picocli.CommandLine.Option;

/**
 * The options every simulating command shares ({@code run}, {@code sim}, {@code mgmt}): where the
 * waves go and how large they may grow, and whether to draw a progress bar. Also the checks and
 * messages that go with them, so the three commands fail the same way.
 */
final class RunOptions {
    @Option(names = "--vcd", paramLabel = "FILE", description = "Dump waves to FILE, with a GTKWave save file (.gtkw) next to it.")
    Path vcd;

    @Option(names = "--vcd-limit", paramLabel = "SIZE", converter = ByteSize.class, defaultValue = "4G",
            description = "Stop the run when the VCD passes SIZE: bytes or K, M, G (default: ${DEFAULT-VALUE}).")
    long vcdLimit;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar (none is drawn when stdout is not a terminal either).")
    boolean quiet;

    /** Fails with one line, before anything is built or simulated, when the VCD or its save file cannot be written. */
    void checkVcdWritable() {
        if (vcd != null) {
            checkWritable(vcd);
            checkWritable(new RunConfig(0, 0, vcd).gtkw());
        }
    }

    RunConfig config(long seed, long cycles, ProgressListener progress) {
        return new RunConfig(seed, cycles, vcd, vcdLimit, Simulator.DEFAULT_VCD_PERIOD_PS, progress);
    }

    /** Progress bars labelled {@code label}, or null when quiet or when stdout is not a terminal. */
    ProgressBars progressBars(String label) {
        return quiet || System.console() == null ? null : new ProgressBars(label);
    }

    /** The one line for a run the VCD limit stopped (exit 1); the dump up to there is on disk. */
    CliError limitReached(VcdLimitExceeded e) {
        String where = e.cycle().isPresent() ? "cycle " + e.cycle().getAsLong() : "time " + e.time() + " (" + e.timescale() + " ticks)";
        return CliError.failure(vcd + " reached the " + ByteSize.format(e.limit()) + " limit at " + where + "; raise it with --vcd-limit");
    }

    /**
     * Opens {@code file} for appending, which fails as writing it later would, without truncating an
     * existing file; a file created only for the check is removed again.
     */
    private static void checkWritable(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null && !Files.exists(parent)) {
                Files.createDirectories(parent);
            }
            boolean existed = Files.exists(file);
            try (OutputStream probe = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
                probe.flush();
            }
            if (!existed) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw CliError.usage("cannot write " + file + ": " + IoErrors.reason(e));
        }
    }
}
