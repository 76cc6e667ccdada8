package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.ChppVerilogTest;
import org.flitkit.rtl.chpp.receive.CompletionRingParams;
import org.flitkit.rtl.chpp.receive.EventMerge;
import org.flitkit.rtl.chpp.receive.ReceiveSide;
import org.flitkit.rtl.chpp.send.SendCompletionEntry;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upload side as Verilog: {@code verilator --lint-only -Wall} finds nothing in PUT upload, NAP upload, buffer
 * management, the GET answer, the event merge and the send-entry formatter, at the defaults and at other sizes.
 * Skips without verilator outside CI (the {@link ChppVerilogTest} pattern). docs/chpp-upload.md, "Verilog".
 */
class UploadVerilogTest {

    @Test
    void putAndNapUploadAreLintClean(@TempDir Path dir) {
        VerilogEmitter.Result v = ExternalTools.verilatorLintClean(dir.resolve("put"), () -> new PutUpload(128));
        assertThat(v.topModule()).isEqualTo("PutUpload");
        ExternalTools.verilatorLintClean(dir.resolve("put4k"), () -> new PutUpload(4096));
        ExternalTools.verilatorLintClean(dir.resolve("nap"), () -> new NapUpload(128));
        ExternalTools.verilatorLintClean(dir.resolve("nap512"), () -> new NapUpload(512));
    }

    @Test
    void bufferManagementIsLintClean(@TempDir Path dir) {
        ExternalTools.verilatorLintClean(dir.resolve("def"), () -> new BufferManagement(ChppParams.paper(), BufferParams.defaults()));
        ExternalTools.verilatorLintClean(dir.resolve("ext"), () -> new BufferManagement(ChppParams.paper().withTags(256),
                BufferParams.defaults().withPrefetch(64, 0).withRetryDelay(1 << 20).withMaxReadRequest(4096)));
        ExternalTools.verilatorLintClean(dir.resolve("tiny"), () -> new BufferManagement(ChppParams.paper().withTags(1).withFunctions(1),
                BufferParams.defaults().withPrefetch(2, 1).withRetryDelay(1).withMaxReadRequest(64)));
    }

    @Test
    void getAnswerMergeAndSendEntryAreLintClean(@TempDir Path dir) {
        ExternalTools.verilatorLintClean(dir.resolve("get"), () -> new GetAnswer());
        ExternalTools.verilatorLintClean(dir.resolve("merge3"), () -> new EventMerge(3));
        ExternalTools.verilatorLintClean(dir.resolve("merge1"), () -> new EventMerge(1));
        ExternalTools.verilatorLintClean(dir.resolve("send"), () -> new SendCompletionEntry());
    }

    @Test
    void theWholeReceiveSideIsLintClean(@TempDir Path dir) {
        ExternalTools.verilatorLintClean(dir, () -> new ReceiveSide(ChppParams.paper(), BufferParams.defaults(), new CompletionRingParams(64, 0x2000), 128));
    }

    /** Yosys {@code synth} accepts each block at the defaults (prints the time of each). */
    @Test
    void everyBlockSynthesizesWithYosys(@TempDir Path dir) {
        java.util.Map<String, java.util.function.Supplier<org.flitkit.hdl.Module>> tops = new java.util.LinkedHashMap<>();
        tops.put("put", () -> new PutUpload(128));
        tops.put("nap", () -> new NapUpload(128));
        tops.put("bm", () -> new BufferManagement(ChppParams.paper(), BufferParams.defaults()));
        tops.put("get", GetAnswer::new);
        tops.put("merge", () -> new EventMerge(3));
        tops.put("send", SendCompletionEntry::new);
        tops.forEach((name, top) -> ExternalTools.yosysSynthClean(dir.resolve(name), top, java.time.Duration.ofSeconds(300)));
    }
}
