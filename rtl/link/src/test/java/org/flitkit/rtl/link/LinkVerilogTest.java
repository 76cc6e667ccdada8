package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The link layer as Verilog: {@code verilator --lint-only -Wall} finds nothing (two link layers with the cable:
 * every module of rtl/link) and yosys {@code synth} accepts it (the NRC's port configuration: 64 replay slots, 6 VCs). docs/th2-link.md, "Verilog".
 */
class LinkVerilogTest {

    @Test
    void twoLinkLayersAndTheCableAreLintClean(@TempDir Path dir) {
        VerilogEmitter.Result v = ExternalTools.verilatorLintClean(dir, () -> new LinkPairBoard());
        assertThat(v.files().keySet()).contains("LinkPairBoard.v", "Cable.v", "LinkLayer.v", "LinkBist.v");
    }

    @Test
    void linkLayerSynthesizesWithYosys(@TempDir Path dir) {
        ExternalTools.yosysSynthClean(dir, () -> new LinkLayer(LinkParams.defaults()), Duration.ofSeconds(300));
    }
}
