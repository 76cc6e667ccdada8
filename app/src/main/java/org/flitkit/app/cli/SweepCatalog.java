package org.flitkit.app.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.flitkit.app.Catalog;
import org.flitkit.env.chpp.ChppFigures;
import org.flitkit.env.nrc.system.NrcSystemBenchmark;
import org.flitkit.env.ring.RingSaturation;
import org.flitkit.env.ring.RingSaturationScenario;
import org.flitkit.env.xud.XudLossyScenario;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.tools.difftest.DiffRunner;
import org.flitkit.tools.difftest.RandomProgram;
import org.flitkit.tools.difftest.ReferenceSim;
import org.flitkit.testbench.RunConfig;
import org.flitkit.tools.sweep.Point;
import org.flitkit.tools.sweep.PointRunner;
import org.flitkit.tools.sweep.Row;

/**
 * The named sweeps of {@code hdl sweep NAME} as lists of points, and how each kind of point runs: through the same
 * code as the figure or the difftest it belongs to (docs/sweeps.md, "Sweeps").
 */
final class SweepCatalog {
    /** A named sweep: what it measures, and its points. */
    record Named(String name, String description, List<Point> points) {
    }

    static final String CHPP_MTU = "chpp-mtu";
    static final String CHPP_TAGS = "chpp-tags";
    static final String DIFFTEST = "difftest";
    static final String XUD_LOSSY = "xud-lossy";
    static final String RING_SATURATION = "ring-saturation";
    static final String NRC_RING = "nrc-ring";
    /** Loss rates of the xud-loss sweep (data and ACK/NAK packets alike). */
    static final List<String> XUD_LOSSES = List.of("0", "0.01", "0.05", "0.1", "0.2");
    /** Messages of one xud-loss point: enough for hundreds of resends at 20 % loss, few enough for seconds per point. */
    static final int XUD_MESSAGES = 1_000;
    /** Requests of one fabric point: the length of the nrc-ring benchmark's request stream when --requests is not given. */
    static final int FABRIC_REQUESTS = 400;

    private SweepCatalog() {
    }

    /** Every named sweep, in the order 'hdl sweep --help' lists them. */
    static List<Named> named() {
        List<Point> mtu = new ArrayList<>();
        for (int m : ChppFigures.params("mtu")) {
            mtu.add(new Point("chpp-bw-mtu", 0, CHPP_MTU, Map.of("mtu", Integer.toString(m)), RunConfig.DEFAULT_SEED));
        }
        List<Point> tags = new ArrayList<>();
        for (int t : ChppFigures.params("tags")) {
            tags.add(new Point("chpp-tags", 0, CHPP_TAGS, Map.of("tags", Integer.toString(t)), RunConfig.DEFAULT_SEED));
        }
        List<Point> smoke = List.of(
                new Point("smoke", 0, DIFFTEST, difftestParams(0, 4, 100, "iverilog", false), 1),
                new Point("smoke", 0, DIFFTEST, difftestParams(4, 4, 100, "iverilog", false), 1),
                new Point("smoke", 0, DIFFTEST, difftestParams(8, 4, 100, "iverilog", false), 1));
        List<Point> loss = new ArrayList<>();
        for (String l : XUD_LOSSES) {
            // only loss varies: no duplicates, reordering or corruption, so a row's resends are the losses' cost
            loss.add(new Point("xud-loss", 0, XUD_LOSSY, Map.of("loss", l, "ack-loss", l, "dup", "0", "reorder", "0", "corrupt", "0",
                    "messages", Integer.toString(XUD_MESSAGES)), RunConfig.DEFAULT_SEED));
        }
        List<Point> ring = new ArrayList<>();
        for (int n : new int[] {8, 16, 32}) {
            ring.add(new Point("ring-saturation", 0, RING_SATURATION, Map.of("nodes", Integer.toString(n), "steps", "1,3", "schedule", "shortest"),
                    RunConfig.DEFAULT_SEED));
        }
        List<Point> fabric = new ArrayList<>();
        for (int n : new int[] {16, 64, 256}) {
            fabric.add(new Point("fabric", 0, NRC_RING, Map.of("chips", Integer.toString(n), "requests", Integer.toString(FABRIC_REQUESTS)),
                    RunConfig.DEFAULT_SEED));
        }
        return List.of(
                numbered("chpp-bw-mtu", "cHPP PUT bandwidth of a 2 MB transfer against MTU, one point per MTU (figure chpp-bw-mtu)", mtu),
                numbered("chpp-tags", "cHPP PUT bandwidth of a 2 MB transfer against the tags available, one point per tag count "
                        + "(figure chpp-tags)", tags),
                numbered("smoke", "three short difftest shards of 4 random designs against Icarus (the Slurm test in CI)", smoke),
                numbered("xud-loss", "XUD exactly-once delivery of " + XUD_MESSAGES + " messages at data and ACK loss " + String.join(", ", XUD_LOSSES)
                        + " (scenario xud-lossy)", loss),
                numbered("ring-saturation", "saturated slotted multi-rings {+-1,+-3} of 8, 16 and 32 nodes against C (scenario ring-saturation)", ring),
                numbered("fabric", "NRC rings of 16, 64 and 256 chips answering " + FABRIC_REQUESTS + " management requests (bench nrc-ring)", fabric));
    }

    static Named named(String name) {
        return named().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "no sweep named '" + name + "'; sweeps: " + String.join(", ", named().stream().map(Named::name).toList())));
    }

    /** The points of a difftest of {@code designs} random designs in shards of {@code shard} (seed ranges), the RTL designs with the first. */
    static Named difftest(int designs, int shard, int cycles, long seed, String vs, boolean rtl) {
        List<Point> points = new ArrayList<>();
        for (int from = 0; from < designs || (from == 0 && rtl); from += shard) {
            points.add(new Point("difftest", 0, DIFFTEST, difftestParams(from, Math.min(shard, designs - from), cycles, vs, rtl && from == 0), seed));
        }
        return numbered("difftest", designs + " random designs in shards of " + shard, points);
    }

    private static Map<String, String> difftestParams(int from, int count, int cycles, String vs, boolean rtl) {
        return Map.of("from", Integer.toString(from), "count", Integer.toString(count), "cycles", Integer.toString(cycles), "vs", vs,
                "rtl", Boolean.toString(rtl));
    }

    private static Named numbered(String name, String description, List<Point> points) {
        List<Point> out = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            out.add(points.get(i).at(name, i));
        }
        return new Named(name, description, out);
    }

    /** Runs the points of every kind above; difftest shards take the RTL designs from {@code catalog}. */
    static PointRunner runner(Catalog catalog) {
        return (p, log) -> switch (p.kind()) {
            case CHPP_MTU -> {
                int m = (int) p.longParam("mtu");
                double[] v = new ChppFigures(p.seed()).point("mtu", m);
                yield new PointRunner.Result(List.of("mtu_bytes", "gbps", "cycles"), new double[] {m, v[0], v[1]});
            }
            case CHPP_TAGS -> {
                int t = (int) p.longParam("tags");
                double[] v = new ChppFigures(p.seed()).point("tags", t);
                yield new PointRunner.Result(List.of("tags", "gbps", "formula_tags"), new double[] {t, v[0], v[1]});
            }
            case DIFFTEST -> difftest(catalog, p, log);
            case XUD_LOSSY -> {
                XudLossyScenario.Options o = XudLossyScenario.Options.parse(p.params());
                ScenarioResult r = XudLossyScenario.run(new RunConfig(p.seed(), XudLossyScenario.CYCLE_BUDGET, null), o);
                yield counts(List.of("loss", "ack_loss", "messages"), new double[] {o.faults().loss(), o.faults().ackLoss(), o.messages()}, r);
            }
            case RING_SATURATION -> {
                RingSaturation.Measured m = RingSaturationScenario.measure(new RunConfig(p.seed(), RingSaturationScenario.DEFAULT_CYCLES, null),
                        RingSaturationScenario.Options.parse(p.params()), log);
                yield counts(List.of("nodes", "capacity_c", "measured", "measured_over_c", "mean_delivery"), new double[] {
                        m.analytic().schedule().rings().nodes(), m.analytic().effective(), m.throughput(), m.ratio(), m.meanDelivery()},
                        RingSaturationScenario.result(m));
            }
            case NRC_RING -> {
                // one thread: the point's row is counts, and the local executor already runs points side by side
                NrcSystemBenchmark.Counts c = NrcSystemBenchmark.counts((int) p.longParam("chips"), (int) p.longParam("requests"), 1);
                yield new PointRunner.Result(List.of("chips", "requests", "cycles", "answers", "chip_evaluations"),
                        new double[] {c.chips(), c.requests(), c.cycles(), c.answers(), c.chipEvaluations()});
            }
            default -> throw new IllegalArgumentException("point " + p.index() + " of sweep " + p.sweep() + " has kind '" + p.kind()
                    + "'; kinds: " + String.join(", ", CHPP_MTU, CHPP_TAGS, DIFFTEST, XUD_LOSSY, RING_SATURATION, NRC_RING));
        };
    }

    /** A scenario's row: {@code first} (its settings), then the cycles it ran and every count of its PASS line, in that order. */
    private static PointRunner.Result counts(List<String> first, double[] values, ScenarioResult r) {
        List<String> columns = new ArrayList<>(first);
        double[] out = java.util.Arrays.copyOf(values, values.length + 1 + r.counts().size());
        columns.add("cycles");
        out[values.length] = r.cycles();
        int i = values.length + 1;
        for (Map.Entry<String, Long> e : r.counts().entrySet()) {
            columns.add(e.getKey());
            out[i++] = e.getValue();
        }
        return new PointRunner.Result(columns, out);
    }

    /** One shard: designs from..from+count-1 of the seed's random designs; a mismatch is a note with its shrunk design. */
    private static PointRunner.Result difftest(Catalog catalog, Point p, PrintStream log) {
        ReferenceSim ref = ReferenceSim.byName(p.param("vs"));
        int cycles = (int) p.longParam("cycles");
        List<DiffRunner.Design> designs = new ArrayList<>(DiffRunner.randomDesigns((int) p.longParam("from"), (int) p.longParam("count"),
                p.seed(), RandomProgram.Shape.standard().forReference(ref.name())));
        if (Boolean.parseBoolean(p.param("rtl"))) {
            for (Catalog.DesignEntry d : catalog.designs()) {
                designs.add(new DiffRunner.Design(d.name(), d.top(), null));
            }
        }
        Path work = DiffRunner.tempWork("flitkit-sweep-difftest-");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        DiffRunner.Report r;
        List<String> notes = new ArrayList<>();
        boolean keep = false;
        try {
            try (PrintStream both = new PrintStream(new Tee(log, text), true, StandardCharsets.UTF_8)) {
                r = new DiffRunner(ref, work, both).run(designs, cycles, p.seed());
            }
            r.referenceErrors().forEach(e -> notes.add("REFERENCE-ERROR " + e));
            r.mismatches().forEach(m -> notes.add("MISMATCH " + m));
            String out = text.toString(StandardCharsets.UTF_8);
            int shrunk = out.indexOf("---- smallest failing design");
            if (shrunk >= 0) {
                notes.add(out.substring(shrunk).strip());
                notes.add("Verilog and builds kept in " + work);
            }
            keep = shrunk >= 0 || !r.referenceErrors().isEmpty();
        } finally {
            // a shard that throws leaves nothing behind; a mismatch keeps its builds for the shrunk design's reader
            if (!keep) {
                delete(work);
            }
        }
        return new PointRunner.Result(List.of("designs", "cycles", "mismatches", "reference_errors"),
                new double[] {r.designs(), r.cycles(), r.mismatches().size(), r.referenceErrors().size()}, notes);
    }

    /** The counts of a sharded difftest: its rows summed. */
    record DifftestTotals(long designs, long cycles, long mismatches, long referenceErrors) {
        static DifftestTotals of(List<Row> rows) {
            long designs = 0;
            long mismatches = 0;
            long refused = 0;
            for (Row r : rows) {
                designs += (long) r.value("designs");
                mismatches += (long) r.value("mismatches");
                refused += (long) r.value("reference_errors");
            }
            return new DifftestTotals(designs, rows.isEmpty() ? 0 : (long) rows.get(0).value("cycles"), mismatches, refused);
        }

        /** The one-line summary, as a difftest run in one JVM prints it. */
        String summary() {
            return DiffRunner.Report.summary(designs, cycles, mismatches, referenceErrors);
        }

        boolean clean() {
            return mismatches == 0 && referenceErrors == 0;
        }
    }

    /** The one-line summary of difftest rows, as a difftest run in one JVM prints it. */
    static String difftestSummary(List<Row> rows) {
        return DifftestTotals.of(rows).summary();
    }

    /**
     * Gives the figure sources of {@code registry} the rows of {@code store} as points measured elsewhere, so that
     * {@code hdl figures} uses them instead of running those points; returns how many rows it gave.
     */
    static int merge(org.flitkit.figures.FigureRegistry registry, org.flitkit.tools.sweep.SweepStore store) {
        List<Row> rows = store.rows();
        ChppFigures chpp = registry.sources().stream().filter(ChppFigures.class::isInstance).map(ChppFigures.class::cast).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no cHPP figures to merge the rows of " + store.dir() + " into"));
        for (Row r : rows) {
            if (!r.kind().equals(CHPP_MTU) && !r.kind().equals(CHPP_TAGS)) {
                throw new IllegalArgumentException("sweep " + store.manifest().sweep() + " in " + store.dir() + ": its points are " + r.kind()
                        + " runs, which no figure uses (figures merge " + CHPP_MTU + " and " + CHPP_TAGS + " rows)");
            }
            if (r.seed() != RunConfig.DEFAULT_SEED) {
                throw new IllegalArgumentException("sweep " + store.dir() + ": row " + r.index() + " ran with seed " + r.seed() + ", the figures with "
                        + RunConfig.DEFAULT_SEED);
            }
            if (r.kind().equals(CHPP_MTU)) {
                chpp.known("mtu", (int) r.value("mtu_bytes"), new double[] {r.value("gbps"), r.value("cycles")});
            } else {
                chpp.known("tags", (int) r.value("tags"), new double[] {r.value("gbps"), r.value("formula_tags")});
            }
        }
        return rows.size();
    }

    /** The FlitKit version that rows record: the jar's, or "development build" when run from classes. */
    static String version() {
        String v = Main.class.getPackage().getImplementationVersion();
        return v != null ? v : "development build";
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the difftest work directory " + dir, e);
        }
    }

    /** Writes to both streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int x) throws IOException {
            a.write(x);
            b.write(x);
        }

        @Override
        public void write(byte[] buf, int off, int len) throws IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }

        @Override
        public void flush() throws IOException {
            a.flush();
            b.flush();
        }

        @Override
        public void close() throws IOException {
            flush(); // the point's log stays open: its owner closes it
        }
    }
}
