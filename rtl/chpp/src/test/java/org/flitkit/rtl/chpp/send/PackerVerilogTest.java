package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppVerilogTest;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packer as Verilog: {@code verilator --lint-only -Wall} finds nothing at the default MTU (128) and at the
 * smallest and largest (16, 4096). Skips without verilator outside CI (the {@link ChppVerilogTest} pattern).
 * docs/chpp-packer.md, "Tests".
 */
class PackerVerilogTest {

    @Test
    void packerIsLintCleanAtEveryMtuExtreme(@TempDir Path dir) {
        VerilogEmitter.Result v = ExternalTools.verilatorLintClean(dir.resolve("default"), () -> new Packer(SendEngineParams.defaults()));
        assertThat(v.topModule()).isEqualTo("Packer");
        ExternalTools.verilatorLintClean(dir.resolve("mtu16"), () -> new Packer(SendEngineParams.defaults().withMtu(16)));
        ExternalTools.verilatorLintClean(dir.resolve("mtu4096"), () -> new Packer(SendEngineParams.defaults().withMtu(4096)));
    }
}
