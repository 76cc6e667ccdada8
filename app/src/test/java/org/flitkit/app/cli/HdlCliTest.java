package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flitkit.app.Catalog;
import org.flitkit.testbench.ExternalTools;
import org.flitkit.testbench.TestbenchFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class HdlCliTest {
    /** Exit code and captured output of one command line. */
    record Run(int exit, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }

        String lastLine() {
            List<String> l = outLines();
            return l.isEmpty() ? "" : l.get(l.size() - 1);
        }
    }

    static Run hdl(Catalog catalog, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine(catalog);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    static Run hdl(String... args) {
        return hdl(Catalog.standard(), args);
    }

    @Test
    void listsTestbenchesAndDesignsOnePerLine() {
        Run r = hdl("list");
        assertThat(r.exit()).isZero();
        assertThat(r.outLines()).anyMatch(l -> l.matches("testbench +flit-loopback +\\S.*"))
                .anyMatch(l -> l.matches("design +flit-loopback +\\S.*"));
    }

    @Test
    void runEndsWithAOneLinePassSummary() {
        Run r = hdl("run", "flit-loopback", "--cycles", "3000", "--seed", "5");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lastLine()).matches("PASS flit-loopback seed=5 cycles=30\\d\\d flits=\\d+ time=\\d+\\.\\d\\ds \\([\\d,]+ cycles/s\\)");
    }

    @Test
    void runWritesWavesAndSaysWhere(@TempDir Path dir) {
        Path vcd = dir.resolve("fl.vcd");
        Run r = hdl("run", "flit-loopback", "--cycles", "500", "--vcd", vcd.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(vcd).isNotEmptyFile();
        assertThat(dir.resolve("fl.gtkw")).isNotEmptyFile();
        assertThat(r.out()).contains("waves: " + vcd).contains("gtkwave " + vcd + " " + dir.resolve("fl.gtkw"));
        assertThat(r.lastLine()).startsWith("PASS flit-loopback seed=1 ");
    }

    /** The names of the counts of a PASS line, between {@code cycles=N} and {@code time=}. */
    static List<String> countNames(String passLine) {
        return Pattern.compile(" (\\w+)=").matcher(passLine.replaceFirst(".* cycles=\\d+ ", " ").replaceFirst(" time=.*", ""))
                .results().map(m -> m.group(1)).toList();
    }

    @Test
    void everyTestbenchHasALegendOfItsCountsAndFlitLoopbacksMatchesItsLine() {
        for (Catalog.TestbenchEntry e : Catalog.standard().testbenches()) {
            assertThat(e.counts()).as(e.name()).isNotEmpty();
        }
        Run r = hdl("run", "flit-loopback", "--cycles", "1000");
        assertThat(countNames(r.lastLine())).containsExactlyElementsOf(Catalog.standard().testbench("flit-loopback").orElseThrow().counts().keySet());
    }

    @Test
    void aFailingTestbenchExitsWithOneAndSaysWhyAndWhen() {
        Catalog c = new Catalog().testbench("broken", "always fails", cfg -> {
            throw new TestbenchFailure(42, "scoreboard", "item #3 does not match\n  expected: 0x7a\n  observed: 0x27a", cfg.seed());
        });
        Run r = hdl(c, "run", "broken", "--seed", "8");
        assertThat(r.exit()).isEqualTo(1);
        // the verdict is one line; what the scoreboard compared comes before it, on stderr
        assertThat(r.out()).isEqualTo("FAIL broken seed=8 cycle=42 component=scoreboard: item #3 does not match\n");
        assertThat(r.err()).isEqualTo("  expected: 0x7a\n  observed: 0x27a\n");
    }

    @Test
    void aCrashIsOneLineNamingTheCommandWithItsStackTraceInALog() throws IOException {
        Catalog c = new Catalog().testbench("crashing", "throws", cfg -> {
            throw new IllegalStateException("the model lost its clock\nsecond line");
        });
        Run r = hdl(c, "run", "crashing");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines()).hasSize(1);
        Matcher m = Pattern.compile("hdl: run failed: IllegalStateException: the model lost its clock \\(at HdlCliTest\\.java:\\d+\\); "
                + "details and stack trace in (\\S+\\.log) \\(or run with --debug\\)\n").matcher(r.err());
        assertThat(m.matches()).as(r.err()).isTrue();
        Path log = Path.of(m.group(1));
        assertThat(Files.readString(log)).startsWith("java.lang.IllegalStateException: the model lost its clock\nsecond line\n\tat ")
                .contains("at org.flitkit.app.cli.RunCommand.call(RunCommand.java:");
        Files.delete(log);

        Run debug = hdl(c, "--debug", "run", "crashing");
        assertThat(debug.exit()).isEqualTo(1);
        assertThat(debug.err()).startsWith("hdl: run failed: IllegalStateException: the model lost its clock (at HdlCliTest.java:")
                .contains(")\njava.lang.IllegalStateException: the model lost its clock\nsecond line\n\tat ")
                .doesNotContain(".log");
        assertThat(hdl(c, "run", "crashing", "--debug").err().lines().limit(3)).isEqualTo(debug.err().lines().limit(3).toList());
    }

    @Test
    void anEnvironmentTimingOutUnderACommandWithoutAVerdictIsOneLine() throws IOException {
        Catalog c = new Catalog().systemBenchmark("stuck", "times out", (chips, cycles, requests, cabinets, hops, threads, out) -> {
            throw new TestbenchFailure(1287668, "testbench", "timeout: the NIC and its cable to go quiet did not happen within 1000000 cycles"
                    + " (waited since cycle 287668)\n  nic: 3 flits queued", 1);
        });
        Run r = hdl(c, "bench", "stuck", "--chips", "2");
        assertThat(r.exit()).isEqualTo(1);
        Matcher m = Pattern.compile("hdl: bench failed: cycle 1287668: testbench: timeout: the NIC and its cable to go quiet did not happen"
                + " within 1000000 cycles \\(waited since cycle 287668\\); details and stack trace in (\\S+\\.log) \\(or run with --debug\\)\n")
                .matcher(r.err());
        assertThat(m.matches()).as(r.err()).isTrue();
        Path log = Path.of(m.group(1));
        assertThat(Files.readString(log)).contains("\n  nic: 3 flits queued\n  seed=1\n\tat ");
        Files.delete(log);
    }

    @Test
    void unknownTestbenchListsTheAvailableOnes() {
        Run r = hdl("run", "nope");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("unknown testbench 'nope'; available: flit-loopback").contains("Try 'hdl run --help'");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void badUsageExitsWithTwo() {
        assertThat(hdl("run", "flit-loopback", "--cycles", "lots").exit()).isEqualTo(2);
        assertThat(hdl("run", "flit-loopback", "--cycles", "0").err()).contains("--cycles must be at least 1");
        assertThat(hdl("run", "flit-loopback", "--frobnicate").exit()).isEqualTo(2);
        assertThat(hdl("run").exit()).isEqualTo(2);
        assertThat(hdl("launch").exit()).isEqualTo(2);
        Run none = hdl();
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).contains("missing command");
    }

    @Test
    void helpAndVersion() {
        Run help = hdl("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("list").contains("run").contains("verilog");
        assertThat(hdl("--version").out()).startsWith("FlitKit");
        assertThat(hdl("help", "run").out()).contains("--cycles").contains("--seed").contains("--vcd");
    }

    @Test
    void verilogWritesOneFilePerModuleDefinition(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("rtl");
        Run r = hdl("verilog", "flit-loopback", "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        try (var files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).contains("FlitLoopback.v", "SerialLink.v");
        }
        assertThat(Files.readString(out.resolve("FlitLoopback.v"))).contains("module FlitLoopback");
        assertThat(r.lastLine()).contains("top module FlitLoopback");
    }

    @Test
    void verilogOfTheDemoIsLintClean(@TempDir Path dir) {
        ExternalTools.require("verilator", "verilator");
        Run r = hdl("verilog", "flit-loopback", "-o", dir.toString(), "--lint");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lastLine()).isEqualTo("verilator --lint-only -Wall: clean");
    }

    @Test
    void verilogOfAnUnknownDesignOrWithoutOutputIsAUsageError() {
        Run r = hdl("verilog", "nope", "-o", "x");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("unknown design 'nope'; available: flit-loopback");
        assertThat(hdl("verilog", "flit-loopback").err()).contains("Missing required option: '--output=DIR'");
    }

    /** The counts are Debian's Yosys 0.23 (what .ci/run installs): another Yosys version may map differently. */
    @Test
    void synthCountsTheDemosCellsAgainstTheDevice(@TempDir Path dir) throws Exception {
        ExternalTools.require("yosys", "yosys");
        Run r = hdl("synth", "flit-loopback", "-o", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("cells: BUFG=1 CARRY4=5 FDRE=418 INV=5 LUT2=9 LUT3=3 LUT4=24 LUT5=4 LUT6=181 MUXF7=1 RAM32M=4")
                .contains("not counted above: BUFG=1 CARRY4=5 MUXF7=1");
        assertThat(r.lastLine()).matches("synth FlitLoopback device=xc6vlx365t luts=226 lutram_luts=16 ffs=418 bram36=0 dsp=0 "
                + "slices_at_least=61 slices_pct=0\\.1 time=\\d+\\.\\ds");
        assertThat(dir.resolve("FlitLoopback.stat.json")).exists();
    }

    @Test
    void synthForAnUnknownDeviceIsAUsageError() {
        Run r = hdl("synth", "flit-loopback", "--device", "xc7a35t");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("hdl: synth: unknown device 'xc7a35t'; known: [xc6vlx365t]");
        assertThat(hdl("synth", "flit-loopback", "--timeout", "0").err()).contains("hdl: synth: --timeout must be at least 1 minute, got 0");
    }

    @Test
    void aSummaryWithoutCyclesOfItsOwnShowsNeitherCyclesNorARate() {
        org.flitkit.testbench.ScenarioResult figures = new org.flitkit.testbench.ScenarioResult(0, 397.12, 0, null, null, null,
                java.util.Map.of()).with("figures", 29);
        assertThat(RunCommand.summary("PASS chpp-figures seed=1", figures)).isEqualTo("PASS chpp-figures seed=1 figures=29 time=397.12s");
        org.flitkit.testbench.ScenarioResult run = new org.flitkit.testbench.ScenarioResult(4000, 2.0, 0, null, null, null,
                java.util.Map.of()).with("flits", 7);
        assertThat(RunCommand.summary("PASS x seed=1", run)).isEqualTo("PASS x seed=1 cycles=4000 flits=7 time=2.00s (2,000 cycles/s)");
    }
}
