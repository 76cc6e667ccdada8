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
                "top.clk",
                "@22",
                "top.fifo.count[7:0]");
    }

    @Test
    void traceFlagsAreOnlyRepeatedWhenTheyChange() {
        String text = new GtkwSaveFile(Path.of("/tmp/x.vcd"))
                .trace("top.a", 1).trace("top.b", 1).trace("top.bus", 198).trace("top.c", 1)
                .render();

        assertThat(text.lines().dropWhile(l -> !l.startsWith("@"))).containsExactly(
                "@28", "top.a", "top.b", "@22", "top.bus[197:0]", "@28", "top.c");
    }

    @Test
    void unknownSignalsAreReported() throws Exception {
        Path vcd = dir.resolve("run.vcd");
        new VcdWriter(vcd, 1, "ns").close();

        assertThatThrownBy(() -> GtkwSaveFile.write(dir.resolve("x.gtkw"), vcd, List.of("top.nope")))
                .isInstanceOf(NoSuchElementException.class).hasMessageContaining("top.nope");
    }
}
