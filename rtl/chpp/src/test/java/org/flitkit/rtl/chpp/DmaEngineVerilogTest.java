package org.flitkit.rtl.chpp;

import org.flitkit.rtl.chpp.receive.CompletionRing;
import org.flitkit.rtl.chpp.receive.ReceiveEngine;
import org.flitkit.rtl.chpp.send.DoorbellWindow;
import org.flitkit.rtl.chpp.send.SendEngine;
import org.flitkit.rtl.chpp.send.SendEngineParams;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole DMA engine's Verilog is lint-clean under {@code verilator --lint-only -Wall} (the Yosys cell counts are
 * a manual run, docs/chpp-nic.md "Size", since synthesizing the engine takes minutes).
 */
class DmaEngineVerilogTest {
    @Test
    void theEngineIsLintClean(@TempDir Path dir) {
        VerilogEmitter.Result v = ExternalTools.verilatorLintClean(dir, () -> new DmaEngine(SendEngineParams.defaults()));
        assertThat(v.topModule()).isEqualTo("DmaEngine");
        assertThat(v.files().keySet()).contains("SendEngine.v", "ReceiveEngine.v", "PcieArbiter.v", "CompletionRing.v", "DoorbellWindow.v");
    }
}
