package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.hdl.verilog.VerilogTools;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The link layer as Verilog: {@code verilator --lint-only -Wall} finds nothing (two link layers with the cable:
 * every module of rtl/link) and yosys {@code synth} accepts it (the NRC's port configuration: 64 replay slots, 6 VCs). docs/th2-link.md, "Verilog".
 */
class LinkVerilogTest {

    private static VerilogEmitter.Result emit(Path dir) {
        VerilogEmitter.Result v = new VerilogEmitter().emitResult(Circuit.elaborate(() -> new LinkLayer(LinkParams.defaults())));
        VerilogEmitter.write(v.files(), dir);
        return v;
    }

    @Test
    void twoLinkLayersAndTheCableAreLintClean(@TempDir Path dir) {
        VerilogEmitter.Result v = ExternalTools.verilatorLintClean(dir, () -> new LinkPair());
        assertThat(v.files().keySet()).contains("LinkPair.v", "LinkCable.v", "LinkLayer.v", "LinkBist.v");
    }

    @Test
    void linkLayerSynthesizesWithYosys(@TempDir Path dir) {
        ExternalTools.require("yosys", "yosys");
        VerilogEmitter.Result v = emit(dir);
        long t0 = System.nanoTime();
        List<Path> files = VerilogTools.verilogFiles(dir);
        VerilogTools.Result r = VerilogTools.yosysSynth(files, v.topModule(), Duration.ofSeconds(300));
        assertThat(r.ok()).as("yosys synth:\n%s", r).isTrue();
        System.out.printf("yosys synth of LinkLayer: %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }
}
