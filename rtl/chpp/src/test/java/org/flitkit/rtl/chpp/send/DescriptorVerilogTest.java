package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.ChppVerilogTest;
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
 * The descriptor stages as Verilog: {@code verilator --lint-only -Wall} finds nothing in descriptor read and
 * descriptor extract with the paper's parameters, with 256 extended tags and 4096-byte reads, and at the smallest
 * sizes. Skips without verilator outside CI (the {@link ChppVerilogTest} pattern). docs/chpp-send-engine.md, "Verilog".
 */
class DescriptorVerilogTest {

    private static VerilogEmitter.Result lint(Path dir, Supplier<Module> top) {
        return ExternalTools.verilatorLintClean(dir, top);
    }

    @Test
    void descriptorReadIsLintClean(@TempDir Path dir) {
        VerilogEmitter.Result v = lint(dir, () -> new DescriptorRead(ChppParams.paper(), SendEngineParams.defaults()));
        assertThat(v.topModule()).isEqualTo("DescriptorRead");
    }

    @Test
    void descriptorExtractIsLintClean(@TempDir Path dir) {
        VerilogEmitter.Result v = lint(dir, () -> new DescriptorExtract(ChppParams.paper(), SendEngineParams.defaults()));
        assertThat(v.files().keySet()).contains("DescriptorExtract.v");
    }

    /**
     * Yosys accepts descriptor extract with the defaults (about 15 s); prints the synthesis time. Descriptor read
     * synthesizes too but takes about 85 s (its 16 KB of buffer become flip-flops in a generic synth), too long for
     * a unit test: docs/chpp-send-engine.md, "Verilog".
     */
    @Test
    void descriptorExtractSynthesizesWithYosys(@TempDir Path dir) {
        int i = 0;
        for (Supplier<Module> top : List.<Supplier<Module>>of(() -> new DescriptorExtract(ChppParams.paper(), SendEngineParams.defaults()))) {
            ExternalTools.yosysSynthClean(dir.resolve("top" + i++), top, Duration.ofSeconds(300));
        }
    }

    @Test
    void otherSizesAreLintClean(@TempDir Path dir) {
        lint(dir.resolve("ext"), () -> new DescriptorRead(ChppParams.paper().withTags(256),
                SendEngineParams.defaults().withSlots(8).withMaxReadRequest(4096)));
        lint(dir.resolve("tiny"), () -> new DescriptorRead(ChppParams.paper().withTags(1).withFunctions(1),
                SendEngineParams.defaults().withSlots(1).withMaxReadRequest(64)));
        lint(dir.resolve("stages"), () -> new DescriptorStages(ChppParams.paper(), SendEngineParams.defaults()));
    }
}
