package org.flitkit.env.nrc.switchcore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.flitkit.env.nrc.NrcFigures;
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
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;

/**
 * The NRC switch core's throughput figures, measured on the 24-port RTL core with open-loop sources
 * ({@link SwitchLoad}): the head-of-line limit with one FIFO per input against the classic value and the
 * Monte Carlo model for N = 24 ({@link HolModel}), how 4-flit packets lower it and DAMQ with VCs raises it,
 * latency against offered load, and saturation against VCs, packet length and buffer depth.
 * docs/th2-nrc-switch.md, "Figures".
 */
public final class SwitchFigures extends PointFigures<SwitchFigures.Key, SwitchLoad.Point> {
    /** Karol, Hluchyj and Morgan: the saturation throughput of input queueing, 2 - sqrt(2) for large N. */
    public static final Citation KAROL = new Citation("Input Versus Output Queueing on a Space-Division Packet Switch "
            + "(Karol, Hluchyj, Morgan, IEEE Trans. Communications, 1987)", "Section III, Table I",
            "Karol et al. 1987");
    static final Citation NRC = NrcFigures.PAPER.at("Section 2.2 (NRC: 24 ports, 6 VCs, VCT, DAMQ)");
    static final long WARMUP = 500;
    static final long MEASURE = 2000;
    static final long SEED = 1;
    static final double[] LOADS = {0.1, 0.3, 0.5, 0.6, 0.7, 0.8};
    /** Hotspot: 20 % of all packets go to output 0, which saturates at an offered load of 1 / (0.2 x 24 + 0.8). */
    static final double[] HOTSPOT_LOADS = {0.05, 0.1, 0.15, 0.2};
    static final double HOL_LIMIT = Math.round((2 - Math.sqrt(2)) * 1000) / 1000.0;
    static final int[] VCS = {1, 2, 3, 6};
    static final int[] LENGTHS = {1, 2, 4, 8};
    static final int[] SHARED = {0, 16, 32, 64};

    /** A saturation or load point: configuration, pattern, packet length, offered load. */
    record Key(SwitchParams params, SwitchLoad.Pattern pattern, int len, double load) {
    }

    private final Map<SwitchParams, Simulator> compiled = new ConcurrentHashMap<>();

    public SwitchFigures() {
        defineAll();
    }

    static SwitchParams fifo(int len) {
        return SwitchParams.fifo(24, 4, 6, 8, Math.max(len, 4));
    }

    static SwitchParams damq(int vcs, int shared) {
        return new SwitchParams(24, 4, 6, vcs, 8, shared, 8, 32);
    }

    @Override
    public List<Parameter> parameters() {
        SwitchParams p = SwitchParams.TH2;
        return List.of(
                Parameter.of("ports", p.ports(), "ports", Origin.PAPER, NRC.label()),
                Parameter.of("VCs", p.vcs(), "VCs", Origin.PAPER, NRC.label()),
                Parameter.of("tiles", p.rows() * p.cols(), "tiles of " + p.rows() + " x " + p.cols(), Origin.ASSUMPTION,
                        "the relay-station plane's 4 rows of 6 ports; the paper does not describe the switch's internal organisation"),
                Parameter.of("input buffer: reserved per VC", p.reservedFlits(), "flits", Origin.ASSUMPTION, "one whole packet per VC, so a VC never deadlocks on the shared pool"),
                Parameter.of("input buffer: shared (DAMQ)", p.sharedFlits(), "flits", Origin.ASSUMPTION, "the paper names DAMQ buffers but not their size"),
                Parameter.of("longest packet", p.maxPacketFlits(), "flits", Origin.ASSUMPTION, "the data packets of this model; the paper gives no maximum"));
    }

    @Override
    public String name() {
        return "nrc-switch";
    }

    @Override
    protected SwitchLoad.Point run(Key k) {
        return SwitchLoad.run(core(k.params()), k.params(), k.pattern(), k.len(), k.load(), WARMUP, MEASURE, SEED);
    }

    @Override
    protected List<Table> tables(Set<String> ids, Map<Key, SwitchLoad.Point> points) {
        // the table of sweep points only from runs that measured points (the HOL model's row runs no RTL)
        if (points.isEmpty()) {
            return List.of();
        }
        List<double[]> rows = new ArrayList<>();
        for (Map.Entry<Key, SwitchLoad.Point> e : points.entrySet()) {
            Key k = e.getKey();
            rows.add(new double[] {k.params().vcs(), k.params().sharedFlits(), k.pattern().ordinal(), k.len(), k.load(),
                    e.getValue().accepted(), e.getValue().latency()});
        }
        return List.of(new Table("nrc-switch-points", List.of("vcs", "shared_flits", "pattern", "packet_flits", "offered", "accepted",
                "latency_cycles"), rows));
    }

    private Simulator core(SwitchParams p) {
        return compiled.computeIfAbsent(p, q -> Simulator.of(() -> new SwitchCore(q)));
    }

    private void defineAll() {
        Key holKey = new Key(fifo(1), SwitchLoad.Pattern.UNIFORM, 1, 1.0);
        double[] ns = {2, 4, 8, 16, 24, 32, 64};
        define(Figure.builder("nrc-switch-hol", "saturation, 24 ports, one FIFO per input, one-flit packets, uniform (head-of-line blocking)")
                .from(KAROL).paper(PaperValue.of(HOL_LIMIT), "flits/cycle/port").tolerance(3)
                .curve(Curve.of("switch size N (ports)", "saturation throughput (flits/cycle/port)")
                        .withPaper(Series.paperLine("paper: 2 - sqrt(2) for N -> infinity", ns, Series.constant(ns.length, 2 - Math.sqrt(2)))))
                .slow().build(), Set.of(holKey), p -> {
                    double[] model = new double[ns.length];
                    for (int i = 0; i < ns.length; i++) {
                        model[i] = HolModel.saturation((int) ns[i], 200_000, SEED);
                    }
                    return new Measurement("nrc-switch-hol", p.get(holKey).accepted(), List.of(
                            Series.model("Monte Carlo of the ideal input-queued switch (random contention)", ns, model),
                            Series.model("RTL core with 24 ports (round-robin arbiters)", new double[] {24}, new double[] {p.get(holKey).accepted()})));
                });
        define(Figure.builder("nrc-switch-hol-n24", "head-of-line limit for N = 24: Monte Carlo of the ideal input-queued switch")
                .from(KAROL).paper(PaperValue.of(HOL_LIMIT), "flits/cycle/port")
                .explained("the paper's 2 - sqrt(2) is the limit for N -> infinity, this row a 24-port switch, which saturates higher "
                        + "(0.75 for N = 2); the row above compares the RTL with it").build(), Set.of(),
                p -> Measurement.of("nrc-switch-hol-n24", HolModel.saturation(24, 400_000, SEED)));
        Key fifo4 = new Key(fifo(4), SwitchLoad.Pattern.UNIFORM, 4, 1.0);
        define(Figure.builder("nrc-switch-fifo-4flit", "saturation, one FIFO per input, 4-flit packets, uniform").from(NRC)
                .paper(PaperValue.none(), "flits/cycle/port")
                .beyondPaper("the paper gives no throughput; a packet holds its output for 4 cycles, so a blocked head waits longer")
                .slow().build(), Set.of(fifo4), p -> Measurement.of("nrc-switch-fifo-4flit", p.get(fifo4).accepted()));
        Key damq4 = new Key(damq(6, 32), SwitchLoad.Pattern.UNIFORM, 4, 1.0);
        define(Figure.builder("nrc-switch-damq-4flit", "saturation, DAMQ with 6 VCs (data on the 5 besides VC3), 4-flit packets, uniform").from(NRC)
                .paper(PaperValue.none(), "flits/cycle/port")
                .beyondPaper("the paper gives no throughput; an input picks among its VC heads whose outputs are free")
                .slow().build(), Set.of(damq4), p -> Measurement.of("nrc-switch-damq-4flit", p.get(damq4).accepted()));

        Map<SwitchLoad.Pattern, List<Key>> lat = new LinkedHashMap<>();
        Set<Key> latKeys = new java.util.LinkedHashSet<>();
        for (SwitchLoad.Pattern pat : SwitchLoad.Pattern.values()) {
            List<Key> l = new ArrayList<>();
            for (double load : pat == SwitchLoad.Pattern.HOTSPOT ? HOTSPOT_LOADS : LOADS) {
                l.add(new Key(damq(6, 32), pat, 4, load));
            }
            lat.put(pat, l);
            latKeys.addAll(l);
        }
        Key latAt = new Key(damq(6, 32), SwitchLoad.Pattern.UNIFORM, 4, 0.5);
        define(Figure.builder("nrc-switch-latency", "mean latency at offered load 0.5, 6 VCs, 4-flit packets, uniform").from(NRC)
                .paper(PaperValue.none(), "cycles")
                .beyondPaper("the paper gives no latency; source queueing included (creation to the tail leaving the core)")
                .curve(Curve.of("offered load (flits/cycle/port)", "mean latency (cycles)")).slow().build(), latKeys, p -> {
                    List<Series> s = new ArrayList<>();
                    lat.forEach((pat, keys) -> s.add(Series.model(pat.name().toLowerCase() + (pat == SwitchLoad.Pattern.HOTSPOT
                            ? " (20 % of packets to output 0)" : ""), keys.stream().mapToDouble(Key::load).toArray(), keys.stream().mapToDouble(k -> p.get(k).latency()).toArray())));
                    return new Measurement("nrc-switch-latency", p.get(latAt).latency(), s);
                });
        sweep("nrc-switch-sat-vcs", "saturation against VCs (DAMQ, 32 shared flits, 4-flit packets, uniform; value: 6 VCs)",
                "virtual channels", VCS, v -> new Key(v == 1 ? fifo(4) : damq(v, 32), SwitchLoad.Pattern.UNIFORM, 4, 1.0), 6);
        sweep("nrc-switch-sat-length", "saturation against packet length (6 VCs, uniform; value: 4 flits)", "packet length (flits)",
                LENGTHS, l -> new Key(damq(6, 32), SwitchLoad.Pattern.UNIFORM, l, 1.0), 4);
        sweep("nrc-switch-sat-buffer", "saturation against shared DAMQ slots (6 VCs x 8 reserved, 4-flit packets, uniform; value: 32)",
                "shared flits per input buffer", SHARED, sh -> new Key(damq(6, sh), SwitchLoad.Pattern.UNIFORM, 4, 1.0), 32);
    }

    private void sweep(String id, String title, String xAxis, int[] xs, Function<Integer, Key> key, int at) {
        List<Key> keys = new ArrayList<>();
        for (int x : xs) {
            keys.add(key.apply(x));
        }
        Key valueKey = key.apply(at);
        double[] xd = java.util.Arrays.stream(xs).asDoubleStream().toArray();
        define(Figure.builder(id, title).from(NRC).paper(PaperValue.none(), "flits/cycle/port")
                .beyondPaper("the paper gives no throughput figures for the NRC")
                .curve(Curve.of(xAxis, "saturation throughput (flits/cycle/port)")).slow().build(), new LinkedHashSet<>(keys),
                p -> new Measurement(id, p.get(valueKey).accepted(), List.of(Series.model("RTL core with 24 ports at offered load 1.0", xd,
                        keys.stream().mapToDouble(k -> p.get(k).accepted()).toArray()))));
    }
}
