package org.flitkit.rtl.nrc.switchcore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.tools.synth.VerilogTools;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The switch core as Verilog: the full 24-port TH-2 core is clean under verilator --lint-only -Wall; the CI-size
 * core (SwitchParams.CI: 2 x 2 tiles, 4 VCs) synthesizes with yosys. Times and the cell count are printed
 * (docs/th2-nrc-switch.md, "Verilog").
 */
class SwitchCoreVerilogTest {
    @Test
    void theFullCoreIsLintClean(@TempDir Path dir) {
        ExternalTools.require("verilator", "verilator");
        long t0 = System.nanoTime();
        VerilogEmitter.Result v = new VerilogEmitter().emitResult(Circuit.elaborate(() -> new SwitchCore(SwitchParams.TH2)));
        List<Path> files = VerilogEmitter.write(v.files(), dir);
        long t1 = System.nanoTime();
        VerilogTools.Result r = VerilogTools.verilatorLint(files, v.topModule());
        System.out.printf("24-port SwitchCore: Verilog emitted in %.1f s, verilator lint %.1f s%n", (t1 - t0) / 1e9,
                (System.nanoTime() - t1) / 1e9);
        assertThat(r.clean()).as("verilator lint:\n%s", r).isTrue();
    }

    @Test
    void theCiCoreSynthesizes(@TempDir Path dir) {
        ExternalTools.require("yosys", "yosys");
        VerilogEmitter.Result v = new VerilogEmitter().emitResult(Circuit.elaborate(() -> new SwitchCore(SwitchParams.CI)));
        List<Path> files = VerilogEmitter.write(v.files(), dir);
        StringBuilder script = new StringBuilder("read_verilog");
        files.forEach(f -> script.append(" \"").append(f.toAbsolutePath()).append('"'));
        script.append("; synth -top ").append(v.topModule()).append("; stat");
        long t0 = System.nanoTime();
        VerilogTools.Result r = VerilogTools.run(dir, Duration.ofMinutes(5), new ArrayList<>(List.of("yosys", "-p", script.toString())));
        assertThat(r.ok()).as("yosys synth:\n%s", r).isTrue();
        Matcher m = Pattern.compile("Number of cells:\\s+(\\d+)").matcher(r.output());
        String cells = "?";
        while (m.find()) {
            cells = m.group(1); // the last one is the top's total
        }
        System.out.printf("CI SwitchCore (%s): yosys synth %.1f s, %s cells%n", SwitchParams.CI,
                (System.nanoTime() - t0) / 1e9, cells);
        assertThat(cells).isNotEqualTo("?");
    }
}
