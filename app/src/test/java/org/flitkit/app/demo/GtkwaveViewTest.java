package org.flitkit.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.app.Catalog;
import org.flitkit.app.cli.Main;
import org.flitkit.tools.synth.VerilogTools;
import org.flitkit.testbench.ExternalTools;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchFailure;
import org.flitkit.waves.GtkwSaveFile;
import org.flitkit.waves.Scope;
import org.flitkit.waves.Timescale;
import org.flitkit.waves.VcdWriter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What GTKWave really shows for the save files we write: GTKWave runs under a virtual X server
 * (xvfb-run) with a Tcl script that prints the visible time range, the marker and every row of the
 * wave list, then quits.
 */
class GtkwaveViewTest {
    /** The simulator's clock period in the dump's 1 ps ticks. */
    private static final long P = 10_000;
    /** Prints what a user would see, one fact per line; quits even if a query fails. */
    private static final String PROBE = """
            if {[catch {
                puts "START [gtkwave::getWindowStartTime]"
                puts "END [gtkwave::getWindowEndTime]"
                puts "MARKER [gtkwave::getMarker]"
                set n [gtkwave::getTotalNumTraces]
                for {set i 0} {$i < $n} {incr i} {
                    puts "ROW [format %x [gtkwave::getTraceFlagsFromIndex $i]] [gtkwave::getTraceNameFromIndex $i]"
                }
            } problem]} { puts "PROBLEM $problem" }
            gtkwave::/File/Quit
            """;

    @TempDir
    Path dir;

    /** What the probe printed. */
    record View(long start, long end, long marker, List<String> rows) {
    }

    @BeforeEach
    void needsGtkwaveAndAnXServer() {
        ExternalTools.require("gtkwave", "gtkwave");
        ExternalTools.require("xvfb-run", "xvfb");
        ExternalTools.require("xauth", "xauth");
    }

    @Test
    void theDemoRunOpensOnTheFirst200CyclesAfterResetWithOneGroupPerInstanceAndFullNames() throws IOException {
        Path vcd = dir.resolve("flit-loopback.vcd");
        FlitLoopbackScenario.run(RunConfig.of(1, 1000).withVcd(vcd));

        View v = view(vcd, dir.resolve("flit-loopback.gtkw"));

        // reset is 2 cycles: the window is cycles 2 to 202, to the picosecond
        assertThat(v.start()).isEqualTo(2 * P);
        assertThat(v.end()).isEqualTo(202 * P);
        assertThat(v.marker()).isEqualTo(-1);
        // group rows (flags 800200 open, 1000200 close) named by instance; binary scalars (28), hex buses (22)
        assertThat(v.rows()).containsExactly(
                "800200 flitLoopback",
                "28 flitLoopback/clk", "28 flitLoopback/reset",
                "28 flitLoopback/in_valid", "28 flitLoopback/in_ready", "22 flitLoopback/in_bits[197:0]",
                "28 flitLoopback/out_valid", "28 flitLoopback/out_ready", "22 flitLoopback/out_bits[197:0]",
                "1000200 flitLoopback",
                "800200 flitLoopback.link.ser",
                "28 flitLoopback/link/ser/out_valid", "28 flitLoopback/link/ser/out_ready", "22 flitLoopback/link/ser/out_bits[19:0]",
                "1000200 flitLoopback.link.ser",
                "800200 flitLoopback.link.fifo",
                "22 flitLoopback/link/fifo/count[3:0]",
                "1000200 flitLoopback.link.fifo",
                "800200 flitLoopback.link.deser",
                "28 flitLoopback/link/deser/in_valid", "28 flitLoopback/link/deser/in_ready", "22 flitLoopback/link/deser/in_bits[19:0]",
                "1000200 flitLoopback.link.deser");
    }

    @Test
    void hdlSimOpensOnTheSameWindowWithTheTopLevelPorts() throws IOException {
        Path vcd = dir.resolve("sim.vcd");
        int exit = Main.commandLine(Catalog.standard()).execute("sim", "flit-loopback", "--cycles", "5000", "--vcd", vcd.toString());
        assertThat(exit).isZero();

        View v = view(vcd, dir.resolve("sim.gtkw"));

        assertThat(v.start()).isEqualTo(2 * P);
        assertThat(v.end()).isEqualTo(202 * P);
        assertThat(v.rows()).containsExactly("800200 flitLoopback",
                "28 flitLoopback/clk", "28 flitLoopback/reset",
                "28 flitLoopback/in_ready", "28 flitLoopback/in_valid", "22 flitLoopback/in_bits[197:0]",
                "28 flitLoopback/out_ready", "28 flitLoopback/out_valid", "22 flitLoopback/out_bits[197:0]",
                "1000200 flitLoopback");
    }

    @Test
    void aFailingRunOpensOnThe100CyclesBeforeTheFailureWithTheMarkerOnIt() throws IOException {
        Path vcd = dir.resolve("failing.vcd");
        try (Testbench<FlitLoopback> tb = Testbench.create(FlitLoopback::new, RunConfig.of(1, 0).withVcd(vcd))) {
            tb.traces(tb.dut().in.valid, tb.dut().out.bits);
            tb.reset(2);
            tb.run(348);
            tb.fail("the flit at the output is not the one sent");
        } catch (TestbenchFailure expected) {
            assertThat(expected.cycle()).isEqualTo(350);
        }

        View v = view(vcd, dir.resolve("failing.gtkw"));

        // up to the end of the failing cycle (where the dump ends), the marker where the check looked
        assertThat(v.start()).isEqualTo(250 * P);
        assertThat(v.end()).isEqualTo(351 * P - 1);
        assertThat(v.marker()).isEqualTo(350 * P + P / 2);
        assertThat(v.rows()).contains("28 flitLoopback/in_valid", "22 flitLoopback/out_bits[197:0]");
    }

    @Test
    void aCoarserTimescaleOpensOnTheSameWindow() throws IOException {
        // 10 ns ticks and a 40 ns clock: GTKWave counts in ns, so tick t is at 10*t ns
        Path vcd = dir.resolve("slow.vcd");
        try (VcdWriter w = new VcdWriter(vcd, new Timescale(10, "ns"))) {
            Scope top = w.root("top");
            int clk = top.wire("clk", 1);
            int count = top.child("counter").reg("value", 8);
            for (long c = 0; c < 1000; c++) {
                w.time(4 * c);
                w.value(clk, 1);
                w.value(count, c);
                w.time(4 * c + 2);
                w.value(clk, 0);
            }
        }
        Path gtkw = dir.resolve("slow.gtkw");
        new GtkwSaveFile(vcd, new Timescale(10, "ns")).trace("top.clk", 1).trace("top.counter.value", 8)
                .window(4 * 100, 4 * 300).marker(4 * 150).write(gtkw);

        View v = view(vcd, gtkw);

        assertThat(v.start()).isEqualTo(4_000);
        assertThat(v.end()).isEqualTo(12_000);
        assertThat(v.marker()).isEqualTo(6_000);
        assertThat(v.rows()).containsExactly("800200 top", "28 top/clk", "1000200 top",
                "800200 top.counter", "22 top/counter/value[7:0]", "1000200 top.counter");
    }

    /** Opens {@code vcd} with {@code gtkw} in GTKWave on a virtual screen large enough for the saved window size. */
    private View view(Path vcd, Path gtkw) throws IOException {
        Path script = dir.resolve("probe.tcl");
        Files.writeString(script, PROBE);
        VerilogTools.Result r = VerilogTools.run(dir, Duration.ofMinutes(2), List.of("xvfb-run", "-a", "-s", "-screen 0 1600x1000x24",
                "gtkwave", "-S", script.toString(), vcd.toString(), gtkw.toString()));
        assertThat(r.ok()).as("%s", r).isTrue();
        long start = -2;
        long end = -2;
        long marker = -2;
        List<String> rows = new ArrayList<>();
        for (String line : r.output().lines().toList()) {
            String[] w = line.split(" ", 2);
            switch (w[0]) {
                case "START" -> start = Long.parseLong(w[1]);
                case "END" -> end = Long.parseLong(w[1]);
                case "MARKER" -> marker = Long.parseLong(w[1]);
                case "ROW" -> rows.add(w[1]);
                case "PROBLEM" -> throw new AssertionError("GTKWave Tcl: " + w[1]);
                default -> {
                    // GTKWave's own banner and load messages
                }
            }
        }
        assertThat(start).as("%s", r).isNotEqualTo(-2);
        return new View(start, end, marker, rows);
    }
}
