package org.flitkit.testbench;

import java.nio.file.Path;
import org.flitkit.hdl.sim.Simulator;

/**
 * How to run one testbench: the root seed (every random choice derives from it), how many cycles of
 * stimulus to apply, where to dump waves (null: no VCD; a {@code .gtkw} save file is written next
 * to the VCD when the testbench names the signals that matter), how large the dump may grow, the clock
 * period the dump shows (the design's real clock, so protocol timing reads true in GTKWave), and who to
 * tell about progress (null: nobody).
 */
public record RunConfig(long seed, long cycles, Path vcd, long vcdLimit, long clockPeriodPs, ProgressListener progress) {
    public static final long DEFAULT_SEED = 1;
    /** Stimulus cycles when a run does not say. */
    public static final long DEFAULT_CYCLES = 20_000;
    /** The VCD stops past this many bytes unless the run says otherwise: 4 GiB, a few hours of a large design. */
    public static final long DEFAULT_VCD_LIMIT = 4L << 30;

    public RunConfig {
        if (cycles < 0) {
            throw new IllegalArgumentException("cycles must not be negative, got " + cycles);
        }
        if (clockPeriodPs < 1) {
            throw new IllegalArgumentException("clock period must be at least 1 ps, got " + clockPeriodPs);
        }
        if (vcdLimit < 1) {
            throw new IllegalArgumentException("VCD size limit must be at least 1 byte, got " + vcdLimit);
        }
    }

    public RunConfig(long seed, long cycles, Path vcd) {
        this(seed, cycles, vcd, DEFAULT_VCD_LIMIT, Simulator.DEFAULT_VCD_PERIOD_PS, null);
    }

    public static RunConfig of(long seed, long cycles) {
        return new RunConfig(seed, cycles, null);
    }

    public RunConfig withSeed(long s) {
        return new RunConfig(s, cycles, vcd, vcdLimit, clockPeriodPs, progress);
    }

    public RunConfig withCycles(long n) {
        return new RunConfig(seed, n, vcd, vcdLimit, clockPeriodPs, progress);
    }

    public RunConfig withVcd(Path file) {
        return new RunConfig(seed, cycles, file, vcdLimit, clockPeriodPs, progress);
    }

    /** The same run with the VCD stopping past {@code bytes} ({@link org.flitkit.waves.VcdLimitExceeded}). */
    public RunConfig withVcdLimit(long bytes) {
        return new RunConfig(seed, cycles, vcd, bytes, clockPeriodPs, progress);
    }

    /** The same run with the VCD showing one clock cycle as {@code ps} picoseconds (default 10 ns). */
    public RunConfig withClockPeriodPs(long ps) {
        return new RunConfig(seed, cycles, vcd, vcdLimit, ps, progress);
    }

    public RunConfig withProgress(ProgressListener listener) {
        return new RunConfig(seed, cycles, vcd, vcdLimit, clockPeriodPs, listener);
    }

    /** Tells {@link #progress()}, if any, that the calling thread's set-up step {@code name} starts now ({@link ProgressListener#phase}). */
    public void phase(String name) {
        if (progress != null) {
            progress.phase(name);
        }
    }

    /** The GTKWave save file that goes with the VCD: same name, {@code .gtkw} extension (null without a VCD). */
    public Path gtkw() {
        if (vcd == null) {
            return null;
        }
        return vcd.resolveSibling(vcdBaseName() + ".gtkw");
    }

    /**
     * This config for one of several testbenches of a test (or one invocation of a parameterized test): its
     * VCD, if any, becomes {@code <name>-<part>.vcd} so the runs do not overwrite each other.
     */
    public RunConfig part(String part) {
        if (vcd == null) {
            return this;
        }
        return withVcd(vcd.resolveSibling(vcdBaseName() + "-" + part + ".vcd"));
    }

    /** The VCD's file name without its extension. */
    private String vcdBaseName() {
        String n = vcd.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }
}
