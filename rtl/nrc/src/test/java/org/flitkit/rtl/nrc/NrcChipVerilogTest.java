package org.flitkit.rtl.nrc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.tools.synth.VerilogTools;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole NRC (24 link layers, the switch core, the management side with its E2PROM model) as Verilog: clean
 * under verilator --lint-only -Wall. docs/th2-nrc-switch.md, "The chip".
 */
class NrcChipVerilogTest {
    @Test
    void theWholeChipIsLintClean(@TempDir Path dir) {
        ExternalTools.require("verilator", "verilator");
        long t0 = System.nanoTime();
        VerilogEmitter.Result v = new VerilogEmitter().emitResult(Circuit.elaborate(NrcChip::new));
        List<Path> files = VerilogEmitter.write(v.files(), dir);
        long t1 = System.nanoTime();
        VerilogTools.Result r = VerilogTools.verilatorLint(files, v.topModule());
        System.out.printf("NrcChip: Verilog emitted in %.1f s, verilator lint %.1f s%n", (t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9);
        assertThat(r.clean()).as("verilator lint:\n%s", r).isTrue();
    }
}
