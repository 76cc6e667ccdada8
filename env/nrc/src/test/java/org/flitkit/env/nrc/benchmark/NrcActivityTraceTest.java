package org.flitkit.env.nrc.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.waves.Timescale;
import org.flitkit.waves.VcdWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator's activity machinery (chunks skipped while nothing they read changed, counter readers
 * woken only under their selects, the plain variant for busy stretches) changes speed, never results:
 * the NRC under full management traffic gives the same waveform byte for byte with it on and off, and
 * the same state after long batched runs.
 */
class NrcActivityTraceTest {
    @Test
    void nrcTrafficGivesTheSameTraceWithAndWithoutActivitySkipping(@TempDir Path dir) throws Exception {
        Circuit c = Circuit.elaborate(NrcTrafficBenchmark::new);
        Simulator on = Simulator.of(c);
        Simulator off = Simulator.of(c);
        off.setActivitySkipping(false);
        on.reset();
        off.reset();
        // the boot on the erased E2PROM fails after about 25,000 cycles, with every port busy from the start
        for (int k = 0; k < 3; k++) {
            on.step(9_000);
            off.step(9_000);
            for (String s : off.signalNames()) {
                assertThat(on.peekBig(s)).as("cycle %d %s", on.cycle(), s).isEqualTo(off.peekBig(s));
            }
        }
        assertThat(on.skippedChunks()).isPositive();
        Path a = dir.resolve("on.vcd");
        Path b = dir.resolve("off.vcd");
        on.startVcd(new VcdWriter(a, Timescale.forPeriod(10_000, "ps")).date("fixed"), 10_000);
        off.startVcd(new VcdWriter(b, Timescale.forPeriod(10_000, "ps")).date("fixed"), 10_000);
        for (int i = 0; i < 1_500; i++) {
            on.step();
            off.step();
        }
        on.stopVcd();
        off.stopVcd();
        assertThat(on.peek("nrcTrafficBenchmark.responses")).isEqualTo(off.peek("nrcTrafficBenchmark.responses")).isPositive();
        assertThat(Files.mismatch(a, b)).as("first differing byte of the two dumps").isEqualTo(-1L);
    }
}
