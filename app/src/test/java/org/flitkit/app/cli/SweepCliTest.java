package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.flitkit.app.Catalog;
import org.flitkit.tools.sweep.Point;
import org.flitkit.tools.sweep.PointRunner;
import org.flitkit.tools.sweep.SweepStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The named sweeps' points, the difftest's shards and their summary, and a sweep's rows merged into {@code hdl figures}. */
class SweepCliTest {
    @Test
    void chppBwMtuIsOnePointPerMtuOfTheFigure() {
        List<Point> p = SweepCatalog.named("chpp-bw-mtu").points();
        assertThat(p).extracting(x -> x.param("mtu")).containsExactly("64", "128", "256", "512", "1024", "2048", "4096");
        assertThat(p).extracting(Point::index).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(p).allMatch(x -> x.kind().equals("chpp-mtu") && x.seed() == 1);
    }

    @Test
    void aDifftestIsShardedBySeedRangeWithTheRtlDesignsInTheFirstShard() {
        List<Point> p = SweepCatalog.difftest(600, 250, 400, 7, "verilator", true).points();
        assertThat(p).extracting(x -> x.param("from") + "+" + x.param("count") + (x.param("rtl").equals("true") ? " rtl" : ""))
                .containsExactly("0+250 rtl", "250+250", "500+100");
        assertThat(p).allMatch(x -> x.seed() == 7 && x.param("cycles").equals("400") && x.param("vs").equals("verilator"));
    }

    @Test
    void anUnknownSweepIsAUsageErrorListingTheSweeps(@TempDir Path dir) {
        HdlCliTest.Run r = HdlCliTest.hdl("sweep", "nope");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("hdl: no sweep named 'nope'; sweeps: chpp-bw-mtu, chpp-tags, smoke, xud-loss, ring-saturation, fabric\n");
        HdlCliTest.Run e = HdlCliTest.hdl("sweep", "smoke", "--executor", "pbs", "--store", dir.resolve("s").toString());
        assertThat(e.exit()).isEqualTo(2);
        assertThat(e.err()).startsWith("hdl: --executor must be local or slurm, not 'pbs'\n");
        assertThat(dir.resolve("s")).doesNotExist();
    }

    @Test
    void aSweepPointOutsideTheStoreIsAUsageError(@TempDir Path dir) {
        SweepStore.prepare(dir, "smoke", SweepCatalog.version(), SweepCatalog.named("smoke").points());
        HdlCliTest.Run r = HdlCliTest.hdl("sweep-point", dir.toString(), "3");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("hdl: store " + dir.toAbsolutePath() + " has points 0..2, not 3\n");
    }

    @Test
    void aFinishedChppBwMtuSweepGivesTheFigureWithoutRunningIt(@TempDir Path dir) throws Exception {
        SweepStore s = SweepStore.prepare(dir.resolve("store"), "chpp-bw-mtu", SweepCatalog.version(), SweepCatalog.named("chpp-bw-mtu").points());
        for (Point p : s.points()) {
            double m = p.longParam("mtu");
            // made-up numbers: the figure must show exactly these, not the model's
            s.writeRow(p, new PointRunner.Result(List.of("mtu_bytes", "gbps", "cycles"), new double[] {m, m / 1000.0 + 0.1, 1000 + m}), "x");
        }
        HdlCliTest.Run r = HdlCliTest.hdl("figures", "--only", "chpp-bw-mtu", "--sweep", dir.resolve("store").toString(), "--out",
                dir.resolve("fig").toString());
        assertThat(r.err()).contains("using 7 row(s) of " + dir.resolve("store"));
        assertThat(Files.readString(dir.resolve("fig/chpp-bw-mtu-points.csv"))).isEqualTo("mtu_bytes,gbps,cycles\n64,0.164,1064\n"
                + "128,0.228,1128\n256,0.356,1256\n512,0.612,1512\n1024,1.124,2024\n2048,2.148,3048\n4096,4.196,5096\n");
        assertThat(Files.readString(dir.resolve("fig/measurements.csv"))).contains("chpp-bw-mtu,0.228,");
        assertThat(r.exit()).isEqualTo(1); // 0.228 GB/s is far out of the paper's tolerance
    }

    @Test
    void aFinishedChppTagsSweepGivesTheTagsNeeded(@TempDir Path dir) throws Exception {
        SweepStore s = SweepStore.prepare(dir.resolve("store"), "chpp-tags", SweepCatalog.version(), SweepCatalog.named("chpp-tags").points());
        assertThat(s.points()).extracting(x -> x.param("tags")).containsExactly("1", "2", "4", "6", "8", "12", "16", "32");
        for (Point p : s.points()) {
            double t = p.longParam("tags");
            // made-up: bandwidth grows to 4 GB/s at 8 tags, so 8 is the first within 95 % of 32 tags' rate
            s.writeRow(p, new PointRunner.Result(List.of("tags", "gbps", "formula_tags"), new double[] {t, Math.min(t, 8) / 2.0, 7.5}), "x");
        }
        HdlCliTest.Run r = HdlCliTest.hdl("figures", "--only", "chpp-tags", "--sweep", dir.resolve("store").toString(), "--out",
                dir.resolve("fig").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readString(dir.resolve("fig/measurements.csv"))).contains("chpp-tags,8,");
    }

    @Test
    void aDifftestShardThatThrowsLeavesNoWorkDirectory() throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        Set<Path> before = workDirs(tmp);
        Set<Path> during = new HashSet<>();
        // a project design that cannot be built: the shard throws after its work directory exists
        Catalog catalog = new Catalog().design("broken", "throws when built", () -> {
            during.addAll(workDirs(tmp));
            throw new IllegalStateException("broken design");
        });
        Point p = new Point("smoke", 0, "difftest", Map.of("from", "0", "count", "0", "cycles", "10", "vs", "iverilog", "rtl", "true"), 1);
        assertThatThrownBy(() -> SweepCatalog.runner(catalog).run(p, new PrintStream(OutputStream.nullOutputStream())))
                .hasMessageContaining("broken design");
        during.removeAll(before);
        assertThat(during).as("the shard's work directory, seen while it ran").isNotEmpty();
        assertThat(during).allMatch(d -> !Files.exists(d));
    }

    private static Set<Path> workDirs(Path tmp) {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.filter(d -> d.getFileName().toString().startsWith("flitkit-sweep-difftest-")).collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void difftestRowsSumToOneSummaryLine() {
        List<String> columns = List.of("designs", "cycles", "mismatches", "reference_errors");
        var rows = List.of(new org.flitkit.tools.sweep.Row(0, "difftest", 7, "v", columns, new double[] {260, 400, 0, 0}, null),
                new org.flitkit.tools.sweep.Row(1, "difftest", 7, "v", columns, new double[] {250, 400, 2, 0}, null));
        assertThat(SweepCatalog.difftestSummary(rows)).isEqualTo("designs=510 cycles=400 mismatches=2");
        var refused = List.of(rows.get(0), new org.flitkit.tools.sweep.Row(1, "difftest", 7, "v", columns, new double[] {250, 400, 0, 3}, null));
        assertThat(SweepCatalog.difftestSummary(refused)).isEqualTo("designs=510 cycles=400 mismatches=0 reference_errors=3");
    }
}
