package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.verilog.VerilogEmitter;
import org.flitkit.tools.synth.VerilogTools;
import org.flitkit.rtl.nic.DescDispatch;
import org.flitkit.rtl.nic.DescFetch;
import org.flitkit.rtl.nic.EventWriter;
import org.flitkit.rtl.nic.MpSendUnit;
import org.flitkit.rtl.nic.MpqWriter;
import org.flitkit.rtl.nic.RecvDispatch;
import org.flitkit.rtl.nic.VpQueues;
import org.flitkit.testbench.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NIC as Verilog: {@code ./hdl verilog nic --lint} emits the whole {@code Nic} and verilator -Wall finds nothing;
 * the NIC's own blocks (without NIC-NMA) go through yosys {@code synth}, each timed. A yosys run of the whole NIC
 * is too slow for a unit test. docs/th2-nic.md, "Blocks".
 */
class NicVerilogTest {
    @Test
    void theWholeNicEmitsLintCleanVerilog(@TempDir Path dir) {
        ExternalTools.require("verilator", "verilator");
        HdlCliTest.Run r = HdlCliTest.hdl("verilog", "nic", "-o", dir.toString(), "--lint");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lastLine()).isEqualTo("verilator --lint-only -Wall: clean");
    }

    /**
     * VPs of the per-VP blocks in the synthesis run: every VP is the same logic, so 12 VPs check what 40 do in a
     * third of the time (at 40 VPs yosys takes about 39 s for VpQueues and 21 s for DescDispatch alone).
     */
    static final int SYNTH_VPS = 12;

    @Test
    void theNicsOwnBlocksSynthesizeWithYosys(@TempDir Path dir) throws Exception {
        ExternalTools.require("yosys", "yosys");
        Map<String, Supplier<Module>> blocks = new LinkedHashMap<>();
        // longest first, so the two workers finish close together
        blocks.put("VpQueues", () -> new VpQueues(SYNTH_VPS));
        blocks.put("RecvDispatch", RecvDispatch::new);
        blocks.put("MpSendUnit", MpSendUnit::new);
        blocks.put("DescFetch", () -> new DescFetch(4));
        blocks.put("DescDispatch", () -> new DescDispatch(SYNTH_VPS));
        blocks.put("MpqWriter", () -> new MpqWriter(SYNTH_VPS));
        blocks.put("EventWriter", () -> new EventWriter(SYNTH_VPS));
        Map<String, Future<String>> runs = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        long t0 = System.nanoTime();
        try {
            for (Map.Entry<String, Supplier<Module>> b : blocks.entrySet()) {
                VerilogEmitter.Result v = new VerilogEmitter().emitResult(Circuit.elaborate(b.getValue()));
                List<Path> files = VerilogEmitter.write(v.files(), dir.resolve(b.getKey()));
                runs.put(b.getKey(), pool.submit(() -> {
                    long s = System.nanoTime();
                    VerilogTools.Result r = VerilogTools.yosysSynth(files, v.topModule(), Duration.ofSeconds(120));
                    assertThat(r.ok()).as("yosys synth of %s:\n%s", b.getKey(), r).isTrue();
                    return String.format(" %s %.1f s;", b.getKey(), (System.nanoTime() - s) / 1e9);
                }));
            }
            StringBuilder times = new StringBuilder("yosys synth of the NIC's blocks (" + SYNTH_VPS + " VPs, 2 at a time):");
            for (Future<String> f : runs.values()) {
                times.append(f.get());
            }
            System.out.println(times.append(String.format(" wall %.1f s", (System.nanoTime() - t0) / 1e9)));
        } finally {
            pool.shutdownNow();
        }
    }
}
