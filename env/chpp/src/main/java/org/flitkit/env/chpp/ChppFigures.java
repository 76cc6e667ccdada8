package org.flitkit.env.chpp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flitkit.env.host.DmaParams;
import org.flitkit.env.host.PcieParams;
import org.flitkit.figures.Citation;
import org.flitkit.figures.Curve;
import org.flitkit.figures.Figure;
import org.flitkit.figures.Measurement;
import org.flitkit.figures.PaperValue;
import org.flitkit.figures.Parameter.Origin;
import org.flitkit.figures.Parameter;
import org.flitkit.figures.PointFigures;
import org.flitkit.figures.Series;
import org.flitkit.figures.Table;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.testbench.ProgressListener;
import org.flitkit.testbench.RunConfig;

/**
 * The cHPP NIC's figures (paper section 5) measured on two RTL engines of one controller against the PCIe host
 * model ({@link ChppMeasurements}): processing latency without memory (figure 18), table 2's one-way latencies, PUT
 * bandwidth against MTU (figure 16) and against payload (figure 17), bandwidth against the tags available (the
 * formula of section 5.1) and the fairness of figure 20. docs/chpp-nic.md, "Figures".
 */
public final class ChppFigures extends PointFigures<ChppFigures.Key, double[]> {
    public static final String PAPER_TITLE = "一种低开销的面向节点内互连的网络接口控制器 (A low-overhead network interface "
            + "controller for intra-node interconnect; Su, Cao, Liu, Wang, Liu, An, Sun)";
    /** How the plots' legends cite it. */
    public static final String SHORT_TITLE = "Su et al., low-overhead NIC";
    static final double MHZ = PcieParams.CHPP_CLOCK_MHZ;
    /** Table 2's payloads (bytes) and its four columns, in microseconds. */
    static final int[] T2_BYTES = {1, 64, 256, 1024, 2048};
    static final double[][] T2_US = {
        {1.242, 1.254, 1.458, 2.514, 3.922}, // NAP immediate
        {1.846, 1.862, 2.018, 2.858, 3.978}, // NAP indirect
        {1.762, 1.778, 1.838, 2.078, 2.398}, // PUT
        {1.838, 1.854, 1.914, 2.154, 2.474}, // GET
    };
    static final String[] OP_ID = {"nap-imm", "nap-ind", "put", "get"};
    static final String PROCESSING = "the device's own PCIe core: the paper's 35 and 48 cycles include its transmit and receive "
            + "pipelines and the registers of an FPGA design at 250 MHz, which it does not break down; the model's stages take 1 to 3 "
            + "cycles each (docs/chpp-nic.md lists them stage by stage)";
    static final int[] MTUS = {64, 128, 256, 512, 1024, 2048, 4096};
    static final int[] TAGS = {1, 2, 4, 6, 8, 12, 16, 32};
    static final int[] PUT_SIZES = {64, 256, 1024, 4096, 16384, 65536, 262144, 524288};
    static final int[] NAP_SIZES = {16, 64, 256, 1024, 2048};
    static final int TRANSFER = 2 << 20;
    static final long FAIR_CYCLES = 3_000_000;
    static final long FAIR_EVERY = 20_000;
    static final int FAIR_MAX_BYTES = 16384;
    /** The band of chpp-fairness: every share within 10 % of 1/8. */
    static final double FAIR_BAND = 0.10;
    /** The bands of chpp-fairness-bands, percent: first and last. */
    static final int[] FAIR_BANDS = {5, 20};

    /**
     * The host of every figure: {@code PcieParams.chpp()} with completions of different tags returned in request
     * order instead of interleaved. The paper's table 2 grows by 0.32 us per KB from 1 to 2 KB (PUT and GET), which is
     * the link's 12.8 B/cycle: its oldest read was not slowed by the others, as it is on an interleaving host
     * (docs/chpp-nic.md, "Host completion order", gives both).
     */
    public static PcieParams host() {
        PcieParams pp = PcieParams.chpp();
        return pp.withLink(new org.flitkit.env.host.PcieLink(pp.link().bytesPerCycle(), pp.link().headerCycles(),
                pp.link().processingCycles(), false));
    }

    /** One model session: latency table, one MTU, one payload sweep, one tag count, or the fairness run. */
    record Key(String what, int param) {
    }

    private final long seed;
    private final ProgressListener progress;

    public ChppFigures() {
        this(RunConfig.DEFAULT_SEED);
    }

    public ChppFigures(long seed) {
        this(seed, null);
    }

    /** Figures whose sessions tell {@code progress} (null: nobody) of their runs and waits, e.g. a {@link org.flitkit.testbench.CycleTally}. */
    public ChppFigures(long seed, ProgressListener progress) {
        this.seed = seed;
        this.progress = progress;
        defineAll();
    }

    @Override
    public List<Parameter> parameters() {
        PcieParams pp = host();
        DmaParams d = pp.dma();
        return List.of(
                Parameter.of("clock", PcieParams.CHPP_CLOCK_MHZ, "MHz", Origin.PAPER, cite("Section 5").label() + ": the prototype's 128-bit bus at 250 MHz"),
                Parameter.of("host memory read round trip", d.readRoundTripCycles(), "cycles", Origin.PAPER,
                        cite("Section 5.4, Fig. 18").label() + ": ~130 cycles, the memory read as the engine sees it"),
                Parameter.of("posted write and BAR write latency", d.writeLatencyCycles(), "cycles", Origin.ASSUMPTION,
                        "half the read round trip (a write is the request half of a read); the paper gives none"),
                Parameter.of("PCIe link", pp.link().bytesPerCycle(), "bytes per cycle", Origin.PAPER,
                        cite("Section 5.1").label() + ": PCIe 2.0 x8, 4 GB/s after 8b/10b"),
                Parameter.of("per-TLP link overhead", pp.link().headerCycles() + 1, "cycles (header + processing)", Origin.PAPER,
                        cite("Section 5.1").label() + ": the 3.2 GB/s argument and formula (2)'s 2 cycles per returned packet"),
                Parameter.of("tags", d.tags(), "tags", Origin.DATASHEET, "the PCIe 5-bit Tag field without Extended Tag (the paper, Section 5.1)"),
                Parameter.of("max read request", d.maxReadRequestBytes(), "bytes", Origin.DATASHEET, "PCIe's default Max_Read_Request_Size"),
                Parameter.of("max payload (MTU)", d.maxPayloadBytes(), "bytes", Origin.PAPER, cite("Section 5.2").label() + ": the real system's MTU"),
                Parameter.of("read completion boundary", d.readCompletionBoundary(), "bytes", Origin.DATASHEET, "a root complex's RCB is 64 or 128 bytes"),
                Parameter.of("fairness: band of 'equal' shares", FAIR_BAND * 100, "% of 1/8", Origin.ASSUMPTION,
                        "the paper gives none; chpp-fairness-bands shows the time for 5 to 20 %"),
                Parameter.of("fairness: PUT sizes", FAIR_MAX_BYTES, "bytes at most (uniform from 1)", Origin.ASSUMPTION, "the paper does not give its traffic"));
    }

    @Override
    public String name() {
        return "chpp";
    }

    @Override
    protected List<Table> tables(Set<String> ids, Map<Key, double[]> points) {
        List<double[]> rows = new ArrayList<>();
        points.forEach((k, v) -> {
            if (k.what().equals("mtu")) {
                rows.add(new double[] {k.param(), v[0], v[1]});
            }
        });
        return rows.isEmpty() ? List.of() : List.of(new Table("chpp-bw-mtu-points", List.of("mtu_bytes", "gbps", "cycles"), rows));
    }

    private static Citation cite(String where) {
        return new Citation(PAPER_TITLE, where, SHORT_TITLE);
    }

    private void defineAll() {
        Key lat = new Key("latency", 0);
        define(Figure.builder("chpp-proc-nap", "engine processing latency of a 1-byte NAP immediate, memory reads excluded")
                .from(cite("Section 5.4, Fig. 18")).paper(PaperValue.of(35), "cycles").notModelled(PROCESSING).build(), Set.of(lat),
                p -> Measurement.of("chpp-proc-nap", p.get(lat)[40]));
        define(Figure.builder("chpp-proc-put", "engine processing latency of a 1-byte PUT, memory reads excluded")
                .from(cite("Section 5.4, Fig. 18")).paper(PaperValue.of(48), "cycles").notModelled(PROCESSING).build(), Set.of(lat),
                p -> Measurement.of("chpp-proc-put", p.get(lat)[41]));
        String[] names = {"NAP immediate", "NAP indirect", "PUT", "GET"};
        for (int o = 0; o < 4; o++) {
            for (int i = 0; i < T2_BYTES.length; i++) {
                String id = "chpp-t2-" + OP_ID[o] + "-" + T2_BYTES[i];
                int slot = o * T2_BYTES.length + i;
                define(Figure.builder(id, "one-way latency, " + names[o] + ", " + T2_BYTES[i] + " B payload")
                        .from(cite("Section 5.3, Table 2")).paper(PaperValue.of(T2_US[o][i]), "us").build(), Set.of(lat),
                        p -> Measurement.of(id, p.get(lat)[slot]));
            }
        }

        Set<Key> mtus = new LinkedHashSet<>();
        for (int m : MTUS) {
            mtus.add(new Key("mtu", m));
        }
        double[] mx = bytes(MTUS);
        define(Figure.builder("chpp-bw-mtu", "PUT bandwidth of a 2 MB transfer against MTU (value: MTU 128 B)")
                .from(cite("Section 5.1, Fig. 16")).paper(PaperValue.of(3.2), "GB/s")
                .curve(Curve.of("MTU = max read request = max payload (bytes)", "GB/s").log2X()
                        .withPaper(Series.paperLine("paper (5.1 text): ~3.2 GB/s at 128 B (the 80 % bound); no higher above",
                                Arrays.copyOfRange(mx, 1, mx.length), Series.constant(mx.length - 1, 3.2))))
                .slow().build(), mtus, p -> new Measurement("chpp-bw-mtu", p.get(new Key("mtu", 128))[0], List.of(
                        Series.model("RTL: 2 MB PUT", mx, Arrays.stream(MTUS).mapToDouble(m -> p.get(new Key("mtu", m))[0]).toArray()))));

        Key put = new Key("payload-put", 0);
        Key get = new Key("payload-get", 0);
        Key napI = new Key("payload-nap-imm", 0);
        Key napD = new Key("payload-nap-ind", 0);
        double[] px = bytes(PUT_SIZES);
        double[] nx = bytes(NAP_SIZES);
        define(Figure.builder("chpp-bw-payload", "PUT bandwidth against payload, MTU 128 B, 32 tags (value: 512 KB)")
                .from(cite("Section 5.2, Fig. 17")).paper(PaperValue.of(3.19), "GB/s")
                .curve(Curve.of("payload per request (bytes; K = 1024)", "GB/s").log2X()
                        .withPaper(Series.paperPoints("paper: PUT 3.19 GB/s at 512 KB", new double[] {512 * 1024}, new double[] {3.19})))
                .slow().build(), new LinkedHashSet<>(List.of(put, get, napI, napD)), p -> new Measurement("chpp-bw-payload",
                        p.get(put)[PUT_SIZES.length - 1], List.of(
                                Series.model("RTL: PUT", px, p.get(put)),
                                Series.model("RTL: GET", px, p.get(get)),
                                Series.model("RTL: NAP immediate", nx, p.get(napI)),
                                Series.model("RTL: NAP indirect", nx, p.get(napD)))));

        Set<Key> tags = new LinkedHashSet<>();
        for (int t : TAGS) {
            tags.add(new Key("tags", t));
        }
        double[] tx = Arrays.stream(TAGS).asDoubleStream().toArray();
        define(Figure.builder("chpp-tags", "tags needed for full PUT bandwidth (95 % of 32 tags' rate), 512 B reads, MTU 128")
                .from(cite("Section 5.1, formula (2)")).paper(PaperValue.none(), "tags")
                .explained("the paper's is a formula, n = t / (Size/16 + 2 Size/MTU), this row a measurement; the curve shows the formula "
                        + "with the model's own read time t beside the measured bandwidth")
                .curve(Curve.of("tags available", "GB/s"))
                .slow().build(), tags, p -> {
                    double full = p.get(new Key("tags", 32))[0];
                    int need = 32;
                    for (int t : TAGS) {
                        if (p.get(new Key("tags", t))[0] >= 0.95 * full) {
                            need = t;
                            break;
                        }
                    }
                    double[] y = Arrays.stream(TAGS).mapToDouble(t -> p.get(new Key("tags", t))[0]).toArray();
                    double formula = p.get(new Key("tags", 32))[1];
                    return new Measurement("chpp-tags", need, List.of(Series.model("RTL: 2 MB PUT", tx, y),
                            Series.model("formula (2) with the model's t: n = " + String.format(java.util.Locale.ROOT, "%.1f", formula)
                                    + " tags", new double[] {formula, formula}, new double[] {0, full})));
                });

        Key fair = new Key("fairness", 0);
        define(Figure.builder("chpp-fairness", "cycles until 8 functions' PUT bandwidth shares stay within 10 % of equal")
                .from(cite("Section 5.5, Fig. 20")).paper(PaperValue.of(1_500_000), "cycles")
                .curve(Curve.of("cycles", "largest share deviation from 1/8 (relative)")
                        .withPaperX("paper: equal shares after about 1.5 million cycles", 1_500_000))
                .slow().build(), Set.of(fair), p -> {
                    double[] v = p.get(fair);
                    double[] x = new double[v.length - 1];
                    double[] y = Arrays.copyOfRange(v, 1, v.length);
                    for (int i = 0; i < x.length; i++) {
                        x[i] = (i + 1) * FAIR_EVERY;
                    }
                    return new Measurement("chpp-fairness", v[0], List.of(Series.model("RTL: 8 functions; random PUTs 1.."
                            + FAIR_MAX_BYTES + " B", x, y)));
                });
        double[] bands = Series.countFrom(FAIR_BANDS[0], FAIR_BANDS[1] - FAIR_BANDS[0] + 1);
        define(Figure.builder("chpp-fairness-bands", "fairness against the band called equal (value: the tightest band reached, %)")
                .from(cite("Section 5.5, Fig. 20")).paper(PaperValue.none(), "%")
                .beyondPaper("the paper says the shares become equal after about 1.5 million cycles and gives no band; chpp-fairness "
                        + "takes 10 %, and this curve shows how much the time depends on that choice")
                .curve(Curve.of("band: largest relative deviation from 1/8 allowed (%)", "cycles until the shares stay inside it")
                        .withPaper(Series.paperLine("paper: equal shares after about 1.5 million cycles", bands,
                                Series.constant(bands.length, 1_500_000))))
                .slow().build(), Set.of(fair), p -> {
                    double[] v = p.get(fair);
                    List<double[]> reached = new ArrayList<>();
                    for (double b : bands) {
                        long at = ChppMeasurements.Shares.settledAt(Arrays.copyOfRange(v, 1, v.length), FAIR_EVERY, b / 100);
                        if (at >= 0) {
                            reached.add(new double[] {b, at});
                        }
                    }
                    if (reached.isEmpty()) {
                        throw new IllegalStateException("the shares stayed within no band of " + FAIR_BANDS[0] + ".." + FAIR_BANDS[1] + " %");
                    }
                    double[] x = reached.stream().mapToDouble(r -> r[0]).toArray();
                    double[] y = reached.stream().mapToDouble(r -> r[1]).toArray();
                    return new Measurement("chpp-fairness-bands", x[0], List.of(Series.model("RTL: 8 functions; random PUTs 1.."
                            + FAIR_MAX_BYTES + " B in " + FAIR_CYCLES + " cycles", x, y)));
                });
    }

    private static double[] bytes(int[] xs) {
        return Arrays.stream(xs).asDoubleStream().toArray();
    }

    private RunConfig cfg() {
        return RunConfig.of(seed, RunConfig.DEFAULT_CYCLES).withProgress(progress);
    }

    /**
     * One session by name, for a sweep point run on its own ({@code ./hdl sweep chpp-bw-mtu}, docs/sweeps.md): {@code mtu}
     * with the MTU gives {gbps, cycles}, as in the chpp-bw-mtu-points table; {@code tags} with the tags available gives
     * {gbps, the tags formula (2) asks for with the model's read time}.
     */
    public double[] point(String what, int param) {
        return run(new Key(what, param));
    }

    /** The parameters of the sweep sessions {@code mtu} (figure 16's MTUs) and {@code tags} (the tag counts of formula (2)). */
    public static int[] params(String what) {
        return switch (what) {
            case "mtu" -> MTUS.clone();
            case "tags" -> TAGS.clone();
            default -> throw new IllegalArgumentException("cHPP sweep sessions: mtu, tags; not '" + what + "'");
        };
    }

    /** What {@link #point} gave for {@code what} and {@code param} elsewhere (a sweep's row): the figures use it instead of a run. */
    public void known(String what, int param, double[] result) {
        know(new Key(what, param), result.clone());
    }

    /** Runs one session; what each returns is read by the definitions above. */
    @Override
    protected double[] run(Key k) {
        SendEngineParams sp = SendEngineParams.defaults();
        PcieParams pp = host();
        switch (k.what()) {
            case "latency" -> {
                try (ChppMeasurements r = new ChppMeasurements(cfg(), sp, pp)) {
                    double[] v = new double[42];
                    for (int o = 0; o < 4; o++) {
                        for (int i = 0; i < T2_BYTES.length; i++) {
                            ChppMeasurements.Latency l = r.latency(ChppMeasurements.Op.values()[o], T2_BYTES[i]);
                            v[o * T2_BYTES.length + i] = l.cycles() / MHZ;
                            if (T2_BYTES[i] == 1 && o == 0) {
                                v[40] = l.processingCycles();
                            }
                            if (T2_BYTES[i] == 1 && o == 2) {
                                v[41] = l.processingCycles();
                            }
                        }
                    }
                    return v;
                }
            }
            case "mtu" -> {
                int m = k.param();
                DmaParams d = pp.dma();
                PcieParams mp = pp.withDma(new DmaParams(d.readRoundTripCycles(), d.writeLatencyCycles(), d.tags(), m,
                        Math.max(128, m), d.readCompletionBoundary()));
                try (ChppMeasurements r = new ChppMeasurements(cfg(), sp.withMtu(m).withMaxReadRequest(m), mp)) {
                    ChppMeasurements.Stream s = r.stream(ChppMeasurements.Op.PUT, TRANSFER, 1, 1);
                    return new double[] {s.gbps(), s.cycles()};
                }
            }
            case "tags" -> {
                int t = k.param();
                DmaParams d = pp.dma();
                PcieParams tp = pp.withDma(new DmaParams(d.readRoundTripCycles(), d.writeLatencyCycles(), t, d.maxReadRequestBytes(),
                        d.maxPayloadBytes(), d.readCompletionBoundary()));
                try (ChppMeasurements r = new ChppMeasurements(cfg(), ChppParams.paper().withTags(t), sp, tp)) {
                    ChppMeasurements.Stream s = r.stream(ChppMeasurements.Op.PUT, TRANSFER, 1, 1);
                    // formula (2) with t = the model's read time: request to last completion of a 512-byte read
                    int size = sp.maxReadRequest();
                    double tRead = r.meanReadCycles();
                    return new double[] {s.gbps(), tRead / (size / 16.0 + 2.0 * size / sp.mtu())};
                }
            }
            case "fairness" -> {
                try (ChppMeasurements r = new ChppMeasurements(cfg(), sp, pp)) {
                    ChppMeasurements.Shares sh = r.fairness(FAIR_CYCLES, FAIR_MAX_BYTES, 4, FAIR_EVERY, seed);
                    double[] v = new double[sh.samples().size() + 1];
                    v[0] = sh.settledAt(FAIR_BAND);
                    for (int i = 0; i < sh.samples().size(); i++) {
                        v[i + 1] = sh.deviation(i);
                    }
                    return v;
                }
            }
            default -> {
                boolean nap = k.what().startsWith("payload-nap");
                int[] sizes = nap ? NAP_SIZES : PUT_SIZES;
                ChppMeasurements.Op op = switch (k.what()) {
                    case "payload-put" -> ChppMeasurements.Op.PUT;
                    case "payload-get" -> ChppMeasurements.Op.GET;
                    case "payload-nap-imm" -> ChppMeasurements.Op.NAP_IMMEDIATE;
                    case "payload-nap-ind" -> ChppMeasurements.Op.NAP_INDIRECT;
                    default -> throw new IllegalArgumentException(k.toString());
                };
                try (ChppMeasurements r = new ChppMeasurements(cfg(), sp, pp)) {
                    double[] v = new double[sizes.length];
                    for (int i = 0; i < sizes.length; i++) {
                        int n = (int) Math.max(8, Math.min(256, TRANSFER / sizes[i]));
                        v[i] = r.stream(op, sizes[i], n, 32).gbps();
                    }
                    return v;
                }
            }
        }
    }
}
