package org.flitkit.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flitkit.tools.synth.VerilogTools;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.ExternalTools;
import org.flitkit.testbench.RunConfig;
import org.flitkit.waves.VcdReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's waveform: what a user opens in GTKWave after {@code ./hdl run flit-loopback --vcd ...}. */
class FlitLoopbackWavesTest {
    private static final int CYCLES = 1_000;
    private static final long PERIOD = 10_000; // ps, the simulator's default clock

    @TempDir
    static Path dir;
    static Path vcd;
    static ScenarioResult result;
    static VcdReader dump;

    @BeforeAll
    static void runWithWaves() {
        vcd = dir.resolve("flit-loopback.vcd");
        result = FlitLoopbackScenario.run(RunConfig.of(3, CYCLES).withVcd(vcd));
        dump = VcdReader.read(vcd);
    }

    @Test
    void scopesFollowTheInstanceHierarchy() {
        assertThat(dump.scopes()).contains("flitLoopback", "flitLoopback.link", "flitLoopback.link.ser",
                "flitLoopback.link.fifo", "flitLoopback.link.deser");
        assertThat(dump.signals()).containsKeys("flitLoopback.link.fifo.count", "flitLoopback.link.ser.busy",
                "flitLoopback.link.deser.full");
    }

    @Test
    void clockTicksEveryCycle() {
        VcdReader.Signal clk = dump.signal("flitLoopback.clk");
        assertThat(clk.width()).isEqualTo(1);
        for (long c = 1; c < result.cycles(); c += 97) {
            assertThat(clk.valueAt(c * PERIOD)).isEqualTo(BigInteger.ONE);
            assertThat(clk.valueAt(c * PERIOD + PERIOD / 2)).isEqualTo(BigInteger.ZERO);
        }
    }

    @Test
    void flitsAre198BitsWideAndBeats20() {
        for (String s : List.of("flitLoopback.in_bits", "flitLoopback.out_bits", "flitLoopback.link.ser.in_bits",
                "flitLoopback.link.deser.out_bits")) {
            assertThat(dump.signal(s).width()).as(s).isEqualTo(198);
        }
        assertThat(dump.signal("flitLoopback.link.ser.out_bits").width()).isEqualTo(20);
        assertThat(dump.signal("flitLoopback.link.fifo.deq_bits").width()).isEqualTo(20);
    }

    @Test
    void theFlitsInTheDumpGoOutAsTheyCameIn() {
        List<BigInteger> in = handshakes("flitLoopback.in");
        List<BigInteger> out = handshakes("flitLoopback.out");
        assertThat(out).hasSize((int) (long) result.counts().get("flits"));
        assertThat(in).startsWith(out.toArray(new BigInteger[0]));
        assertThat(out.stream().filter(f -> f.bitLength() > 190)).isNotEmpty(); // really wide values, not truncated
    }

    @Test
    void gtkwaveSaveFileNamesDumpedSignals() throws Exception {
        String gtkw = Files.readString(result.gtkw());
        assertThat(gtkw).contains("[dumpfile] \"" + vcd.toAbsolutePath() + "\"");
        // "+{alias} name": the trace as the dump declares it, after the name GTKWave shows
        List<String> traces = gtkw.lines().filter(l -> l.startsWith("+{")).map(l -> l.substring(l.indexOf("} ") + 2)).toList();
        assertThat(traces).contains("flitLoopback.clk", "flitLoopback.in_bits[197:0]", "flitLoopback.link.fifo.count[3:0]");
        for (String t : traces) {
            assertThat(dump.signals()).containsKey(t.replaceAll("\\[.*", ""));
        }
    }

    @Test
    void gtkwaveConvertsItWithoutWarnings() {
        ExternalTools.require("vcd2fst", "gtkwave");
        Path fst = dir.resolve("flit-loopback.fst");
        VerilogTools.Result r = VerilogTools.run(dir, Duration.ofMinutes(2), List.of("vcd2fst", vcd.toString(), fst.toString()));
        assertThat(r.ok()).as("%s", r).isTrue();
        assertThat(r.output().toLowerCase(Locale.ROOT)).as("%s", r).doesNotContain("warning").doesNotContain("error");
        assertThat(fst).isNotEmptyFile();
    }

    /** Values of {@code port}_bits on each cycle where valid and ready were high at the clock edge. */
    private static List<BigInteger> handshakes(String port) {
        VcdReader.Signal valid = dump.signal(port + "_valid");
        VcdReader.Signal ready = dump.signal(port + "_ready");
        VcdReader.Signal bits = dump.signal(port + "_bits");
        List<BigInteger> beats = new ArrayList<>();
        for (long c = 0; c < result.cycles(); c++) {
            long t = c * PERIOD + PERIOD / 2; // inputs as driven for the edge that ends cycle c
            if (valid.valueAt(t).signum() != 0 && ready.valueAt(t).signum() != 0) {
                beats.add(bits.valueAt(t));
            }
        }
        return beats;
    }
}
