package org.flitkit.waves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GtkwSaveFileTest {
    @TempDir
    Path dir;

    @Test
    void listsScalarsAndVectorsWithRangesTakenFromTheDump() throws Exception {
        Path vcd = dir.resolve("run.vcd");
        try (VcdWriter w = new VcdWriter(vcd, 1, "ns")) {
            Scope top = w.root("top");
            top.wire("clk", 1);
            top.child("fifo").reg("count", 8);
        }
        Path gtkw = dir.resolve("run.gtkw");

        GtkwSaveFile.write(gtkw, vcd, List.of("top.clk", "top.fifo.count"));

        assertThat(Files.readAllLines(gtkw)).containsSubsequence(
                "[dumpfile] \"" + vcd.toAbsolutePath() + "\"",
                "[timestart] 0",
                "@28",
                "+{top/clk} top.clk",
                "@22",
                "+{top/fifo/count[7:0]} top.fifo.count[7:0]");
    }

    @Test
    void groupsTracesByInstanceUnderOneHeaderEachWithFullPathNames() {
        String text = new GtkwSaveFile(Path.of("/tmp/x.vcd"), new Timescale(1, "ns"))
                .trace("top.in_valid", 1).trace("top.link.in_valid", 1).trace("top.in_bits", 198).trace("top.link.count", 4)
                .trace("top.out_valid", 1)
                .render();

        assertThat(text.lines().dropWhile(l -> !l.startsWith("@"))).containsExactly(
                "@800200", "-top",
                "@28", "+{top/in_valid} top.in_valid",
                "@22", "+{top/in_bits[197:0]} top.in_bits[197:0]",
                "@28", "+{top/out_valid} top.out_valid",
                "@1000200", "-top",
                "@800200", "-top.link",
                "@28", "+{top/link/in_valid} top.link.in_valid",
                "@22", "+{top/link/count[3:0]} top.link.count[3:0]",
                "@1000200", "-top.link");
    }

    @Test
    void windowSetsTheStartAndAZoomAtWhichTheWavePaneSpansIt() {
        // 22 characters want 9 * 22 + 40 = 238 pixels of names, leaving 1440 - 300 - 238 - 24 = 878 of
        // waves; 455581 ps per 200 pixels end them exactly 2,000,000 ps after the start
        String text = new GtkwSaveFile(Path.of("/tmp/x.vcd"), new Timescale(1, "ps"))
                .trace("top.counter.value", 8)
                .window(20_000, 2_020_000).render();

        assertThat(text).contains("[timestart] 20000\n", "[size] 1440 860\n", "[sst_width] 300\n", "[sst_expanded] 1\n",
                "[signals_width] 238\n");
        assertThat(gtkwaveWindowEnd(text, 20_000)).isEqualTo(2_020_000);
        assertThat(zoomLine(text)).endsWith(" -1" + " -1".repeat(26)); // no marker
    }

    @Test
    void theSignalPaneMovesByAPixelWhenThatMakesTheEndExact() {
        // 32 characters want 328 pixels, leaving 788 of waves: GTKWave's whole 507614 ps per 200 pixels
        // end them 1 ps early and 507615 3 ps late; at 327 the pane has 789 pixels and 506971 ends it exactly
        String text = new GtkwSaveFile(Path.of("/tmp/x.vcd"), new Timescale(1, "ps"))
                .trace("flitLoopback.link.deser.in_valid", 1)
                .window(20_000, 2_020_000).render();

        assertThat(text).contains("[signals_width] 327\n");
        assertThat(gtkwaveWindowEnd(text, 20_000)).isEqualTo(2_020_000);
    }

    @Test
    void timesAreInTheTimescaleUnitSoCoarserTicksScale() {
        // a 10ns tick is 10 GTKWave time units: ticks 3..23 are 30ns..230ns
        String text = new GtkwSaveFile(Path.of("/tmp/x.vcd"), new Timescale(10, "ns"))
                .trace("top.a", 1).window(3, 23).marker(5).render();

        assertThat(text).contains("[timestart] 30\n");
        assertThat(gtkwaveWindowEnd(text, 30)).isEqualTo(230);
        assertThat(zoomLine(text).split(" ")[1]).isEqualTo("50");
    }

    @Test
    void badWindowsAndMarkersAreRejected() {
        GtkwSaveFile save = new GtkwSaveFile(Path.of("/tmp/x.vcd"), new Timescale(1, "ns"));
        assertThatThrownBy(() -> save.window(10, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 <= start < end, got 10 to 10");
        assertThatThrownBy(() -> save.window(-1, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> save.marker(-5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unknownSignalsAreReported() throws Exception {
        Path vcd = dir.resolve("run.vcd");
        new VcdWriter(vcd, 1, "ns").close();

        assertThatThrownBy(() -> GtkwSaveFile.write(dir.resolve("x.gtkw"), vcd, List.of("top.nope")))
                .isInstanceOf(NoSuchElementException.class).hasMessageContaining("top.nope");
    }

    private static String zoomLine(String text) {
        return text.lines().filter(l -> l.startsWith("*")).findFirst().orElseThrow();
    }

    /**
     * What GTKWave 3.3 computes from the zoom line: the zoom read as a float, (long) 2^-zoom time units
     * per 200 pixels, the end the whole units that fit the wave pane after the start. The wave pane is
     * what the window leaves of the tree (300) and signal panes and 24 pixels of handles and scrollbar.
     */
    private static long gtkwaveWindowEnd(String text, long start) {
        String signals = text.lines().filter(l -> l.startsWith("[signals_width] ")).findFirst().orElseThrow();
        long wavePixels = 1440 - 300 - Integer.parseInt(signals.substring(16)) - 24;
        float zoom = Float.parseFloat(zoomLine(text).substring(1).split(" ")[0]);
        return start + wavePixels * (long) Math.pow(2, -zoom) / 200;
    }
}
