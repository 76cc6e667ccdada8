package org.flitkit.rtl.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.Supplier;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.hdl.verilog.VerilogTools;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The completion ring writer and the receive dispatch as Verilog: {@code verilator --lint-only -Wall} finds
 * nothing in a small and the largest ring and in the dispatch. Skips without verilator outside CI.
 * docs/chpp-receive-engine.md.
 */
class CompletionRingVerilogTest {

    static void lint(Path dir, Supplier<Module> top) {
        ExternalTools.require("verilator", "verilator");
        VerilogEmitter.Result v = new VerilogEmitter().emitResult(Circuit.elaborate(top));
        VerilogEmitter.write(v.files(), dir);
        VerilogTools.Result r = VerilogTools.verilatorLint(VerilogTools.verilogFiles(dir), v.topModule());
        assertThat(r.ok()).as("verilator lint of %s:\n%s", v.topModule(), r).isTrue();
    }

    @Test
    void smallRingIsLintClean(@TempDir Path dir) {
        lint(dir, () -> new CompletionRing(new RingParams(4, 0x100)));
    }

    @Test
    void largestRingIsLintClean(@TempDir Path dir) {
        lint(dir, () -> new CompletionRing(new RingParams(RingParams.MAX_ENTRIES, 0)));
    }
}
