package org.flitkit.rtl.nma;

import java.util.function.Supplier;
import org.flitkit.hdl.Module;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;

/**
 * VCDs at the design's real clock period for the E2PROM path, so that SCL shows in GTKWave at its true
 * frequency (the framework dumps at 10 ns per cycle).
 */
public final class Runs {
    private Runs() {
    }

    /** A testbench whose VCD (if {@code cfg} asks for one) has the core clock period of {@code p}, not the framework's 10 ns. */
    static <M extends Module> Testbench<M> atCoreClock(Supplier<M> top, RunConfig cfg, EepParams p) {
        return Testbench.create(top, cfg.withClockPeriodPs(corePeriodPs(p)));
    }

    /** The core clock period of {@code p} in picoseconds. */
    static long corePeriodPs(EepParams p) {
        return Math.round(1e12 / p.coreHz());
    }
}
