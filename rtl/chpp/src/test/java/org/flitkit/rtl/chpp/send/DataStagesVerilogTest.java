package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data stages as Verilog: {@code verilator --lint-only -Wall} finds nothing with the paper's parameters (32
 * tags, 512-byte reads, 4 KB reorder buffer), with 256 extended tags and 4 KB reads, and with the smallest sizes
 * (3 tags, 64-byte reads, a 128-byte buffer). Skips without the tools outside CI. docs/chpp-data-stages.md, "Tests".
 */
class DataStagesVerilogTest {
    @Test
    void paperDataStagesAreLintClean(@TempDir Path dir) {
        VerilogEmitter.Result v = ExternalTools.verilatorLintClean(dir, () -> new DataStages(ChppParams.paper(), SendEngineParams.defaults()));
        assertThat(v.files().keySet()).contains("DataStages.v", "DataRead.v", "DataExtract.v", "DataReorder.v");
    }

    @Test
    void extendedTagsAndLargestReadsAreLintClean(@TempDir Path dir) {
        ExternalTools.verilatorLintClean(dir, () -> new DataStages(ChppParams.paper().withTags(ChppParams.EXTENDED_TAGS),
                SendEngineParams.defaults().withMaxReadRequest(4096)));
    }

    @Test
    void smallestSizesAreLintClean(@TempDir Path dir) {
        ExternalTools.verilatorLintClean(dir, () -> new DataStages(ChppParams.paper().withTags(3).withCompletionTimeout(3),
                SendEngineParams.defaults().withMaxReadRequest(64), 128));
    }
}
