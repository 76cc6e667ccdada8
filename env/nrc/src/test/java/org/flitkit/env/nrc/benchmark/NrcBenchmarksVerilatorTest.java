package org.flitkit.env.nrc.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.flitkit.hdl.Module;
import org.flitkit.tools.benchmark.Benchmark;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NRC benchmark designs mean the same in our simulator and in Verilator: the same checksum after the
 * same number of cycles (what {@code ./hdl bench nrc-idle --vs verilator} checks, CI-sized). 40,000 cycles
 * cover the failed power-up load (25,679 cycles, I2C busy) and the traffic after it.
 */
class NrcBenchmarksVerilatorTest {
    private static final long CYCLES = 40_000;

    private static void sameChecksum(Supplier<? extends Module> design, Path work) {
        ExternalTools.require("verilator", "verilator");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<Benchmark.Result> r = new Benchmark(work, new PrintStream(log, true, StandardCharsets.UTF_8))
                .verilatorChecksums(design, CYCLES);
        assertThat(r).extracting(Benchmark.Result::sim).containsExactly("flitkit@" + CYCLES, "verilator");
        assertThat(r).extracting(Benchmark.Result::cycles).containsOnly(CYCLES);
        assertThat(r.get(1).checksum()).as("Verilator's checksum").isEqualTo(r.get(0).checksum());
    }

    @Test
    void nrcIdleChecksumMatchesVerilator(@TempDir Path work) {
        sameChecksum(NrcIdleBenchmark::new, work);
    }

    @Test
    void nrcTrafficChecksumMatchesVerilator(@TempDir Path work) {
        sameChecksum(NrcTrafficBenchmark::new, work);
    }
}
