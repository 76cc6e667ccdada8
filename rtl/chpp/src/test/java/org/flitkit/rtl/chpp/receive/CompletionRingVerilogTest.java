package org.flitkit.rtl.chpp.receive;


import java.nio.file.Path;
import java.util.function.Supplier;
import org.flitkit.hdl.Module;
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
        ExternalTools.verilatorLintClean(dir, top);
    }

    @Test
    void smallRingIsLintClean(@TempDir Path dir) {
        lint(dir, () -> new CompletionRing(new CompletionRingParams(4, 0x100)));
    }

    @Test
    void largestRingIsLintClean(@TempDir Path dir) {
        lint(dir, () -> new CompletionRing(new CompletionRingParams(CompletionRingParams.MAX_ENTRIES, 0)));
    }
}
