package org.flitkit.rtl.chpp;

import org.flitkit.rtl.chpp.send.DoorbellFront;
import org.flitkit.rtl.chpp.send.DoorbellModule;
import org.flitkit.rtl.chpp.send.FunctionArbiter;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The send-engine front as Verilog: {@code verilator --lint-only -Wall} finds nothing in the doorbell front
 * (doorbell module + round-robin and weighted arbiters) and the tag allocator, with the paper's parameters and with
 * 256 extended tags; yosys synthesizes the front and the allocator. Skips without the tools outside CI. docs/chpp-dma.md, "Verilog".
 */
public class ChppVerilogTest {

    private static VerilogEmitter.Result lint(Path dir, Supplier<Module> top) {
        return ExternalTools.verilatorLintClean(dir, top);
    }

    @Test
    void roundRobinDoorbellFrontIsLintClean(@TempDir Path dir) {
        VerilogEmitter.Result v = lint(dir, () -> new DoorbellFront(ChppParams.paper()));
        assertThat(v.files().keySet()).contains("DoorbellFront.v", "DoorbellModule.v", "FunctionArbiter.v");
    }

    @Test
    void weightedDoorbellFrontIsLintClean(@TempDir Path dir) {
        VerilogEmitter.Result v = lint(dir, () -> new DoorbellFront(ChppParams.paper().weighted(List.of(4, 1, 1, 2, 1, 1, 3, 1))));
        assertThat(v.files().keySet()).contains("DoorbellFront.v", "WeightedRRArbiter.v");
    }

    @Test
    void tagAllocatorIsLintClean(@TempDir Path dir) {
        VerilogEmitter.Result v = lint(dir, () -> new TagAllocator(ChppParams.paper()));
        assertThat(v.topModule()).isEqualTo("TagAllocator");
    }

    /** The smallest legal sizes elaborate and lint too: one function, a one-deep FIFO, one tag, a 2-cycle timeout. */
    @Test
    void smallestConfigurationsAreLintClean(@TempDir Path dir) {
        ChppParams tiny = new ChppParams(1, 1, 1, 2, ChppParams.Arbitration.WEIGHTED, List.of(3));
        lint(dir.resolve("front1"), () -> new DoorbellFront(tiny));
        lint(dir.resolve("front3"), () -> new DoorbellFront(ChppParams.paper().withFunctions(3).withDoorbellDepth(1)));
        lint(dir.resolve("tags1"), () -> new TagAllocator(tiny));
        lint(dir.resolve("tags3"), () -> new TagAllocator(ChppParams.paper().withTags(3).withCompletionTimeout(3)));
    }

    /** Yosys accepts the doorbell front and the tag allocator with the paper's parameters; prints the synthesis time. */
    @Test
    void frontAndTagAllocatorSynthesizeWithYosys(@TempDir Path dir) {
        int i = 0;
        for (Supplier<Module> top : List.<Supplier<Module>>of(() -> new DoorbellFront(ChppParams.paper()),
                () -> new TagAllocator(ChppParams.paper()))) {
            ExternalTools.yosysSynthClean(dir.resolve("top" + i++), top, Duration.ofSeconds(300));
        }
    }

    @Test
    void extendedTagAllocatorIsLintClean(@TempDir Path dir) {
        lint(dir, () -> new TagAllocator(ChppParams.paper().withTags(ChppParams.EXTENDED_TAGS)));
    }
}
