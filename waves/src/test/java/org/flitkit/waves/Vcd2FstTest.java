package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Feeds a realistic dump to GTKWave's own converter: if {@code vcd2fst} accepts it silently, the
 * GTKWave viewer will too. Converting back with {@code fst2vcd} also checks the values survived.
 */
class Vcd2FstTest {
    private static final int CYCLES = 500;
    private static final int WIDE = 198;

    @TempDir
    Path dir;

    @Test
    void gtkwaveConvertsOurDumpWithoutWarnings() throws Exception {
        requireTool("vcd2fst");
        Path vcd = dir.resolve("in.vcd");
        Path fst = dir.resolve("out.fst");
        BigInteger[] wideValues = writeDesign(vcd);

        ToolResult toFst = run("vcd2fst", vcd.toString(), fst.toString());

        assertThat(toFst.exitCode()).as("vcd2fst exit code, output:%n%s", toFst.output()).isZero();
        assertThat(toFst.output().toLowerCase(Locale.ROOT)).doesNotContain("warning").doesNotContain("error");
        assertThat(Files.size(fst)).isPositive();

        if (onPath("fst2vcd")) {
            Path back = dir.resolve("back.vcd");
            ToolResult toVcd = run("fst2vcd", "-f", fst.toString(), "-o", back.toString());
            assertThat(toVcd.exitCode()).as("fst2vcd output:%n%s", toVcd.output()).isZero();
            VcdReader dump = VcdReader.read(back);
            assertThat(dump.signal("top.nrc.port0.fifo.data").width()).isEqualTo(WIDE);
            for (int cycle = 0; cycle < CYCLES; cycle += 37) {
                long rising = 10L * cycle + 5;
                assertThat(dump.signal("top.clk").valueAt(rising)).isEqualTo(BigInteger.ONE);
                assertThat(dump.signal("top.clk").valueAt(rising + 5)).isEqualTo(BigInteger.ZERO);
                assertThat(dump.signal("top.nrc.port0.fifo.data").valueAt(rising)).isEqualTo(wideValues[cycle]);
                assertThat(dump.signal("top.nrc.port0.fifo.count").valueAt(rising))
                        .isEqualTo(BigInteger.valueOf(cycle % 256));
            }
        }
    }

    /** A clocked design with a nested hierarchy; returns the 198-bit value driven in each cycle. */
    private static BigInteger[] writeDesign(Path vcd) {
        Timescale ts = Timescale.forPeriod(10, "ns");
        long half = ts.ticks(5, "ns");
        Random random = new Random(42);
        BigInteger[] wide = new BigInteger[CYCLES];
        long[] limbs = new long[(WIDE + 63) / 64];
        try (VcdWriter w = new VcdWriter(vcd, ts)) {
            Scope top = w.root("top");
            int clk = top.wire("clk", 1);
            int rst = top.wire("rst", 1);
            Scope nrc = top.child("nrc");
            int pending = nrc.reg("pending", 3);
            Scope fifo = nrc.child("port0").child("fifo");
            int count = fifo.reg("count", 8);
            int data = fifo.wire("data", WIDE);
            int full = fifo.wire("full", 1);
            nrc.child("port1").child("fifo").reg("count", 8);
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                w.time(2 * half * cycle);
                w.value(clk, 0);
                w.value(rst, cycle < 3 ? 1 : 0);
                w.time(2 * half * cycle + half);
                w.value(clk, 1);
                wide[cycle] = new BigInteger(WIDE, random);
                VcdWriterWideValuesTest.toLimbs(wide[cycle], limbs, 0);
                w.value(data, limbs, 0);
                w.value(count, cycle);
                w.value(full, cycle % 256 == 255 ? 1 : 0);
                w.value(pending, cycle / 7);
            }
            w.time(2 * half * CYCLES);
        }
        return wide;
    }

    private record ToolResult(int exitCode, String output) {
    }

    private ToolResult run(String... command) throws IOException, InterruptedException {
        Path log = dir.resolve(command[0] + ".log");
        Process p = new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("%s did not finish within 60 s", command[0]);
        }
        return new ToolResult(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    private static void requireTool(String tool) {
        if (onPath(tool)) {
            return;
        }
        String message = tool + " not installed (apt-get install gtkwave)";
        if ("true".equals(System.getenv("CI"))) {
            fail(message + "; it is required when CI=true");
        }
        Assumptions.assumeTrue(false, message);
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        return path != null && List.of(path.split(File.pathSeparator)).stream()
                .anyMatch(d -> Files.isExecutable(Path.of(d, tool)));
    }
}
