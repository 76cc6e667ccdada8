package org.flitkit.env.mnc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import org.flitkit.figures.Citation;
import org.flitkit.figures.Figure;
import org.flitkit.figures.FigureSource;
import org.flitkit.figures.Measurement;
import org.flitkit.figures.PaperValue;
import org.flitkit.figures.Parameter.Origin;
import org.flitkit.figures.Parameter;
import org.flitkit.figures.Table;
import org.flitkit.rtl.mnc.MncParams.Policy;
import org.flitkit.rtl.mnc.MncParams;

/**
 * The multi-rail paper's figures on the model (sections 1 and 3), and beyond it (3 and 4 rails, a PCIe-class
 * bus, the dispatch in hardware): every value comes from cycle runs of the node RTL on the platform. The
 * paper's rows use its software dispatch ({@link MncEnvs#paper}); the one-rail peak is the calibration point
 * of the per-packet firmware cycles, marked so. docs/mnc.md, "Figures".
 */
public final class MncFigures implements FigureSource {
    public static final Citation PAPER = new Citation("基于 Myrinet GM 的多通道通信 (Multi-networking communication based on "
            + "Myrinet GM, Journal of Software 2003)", "Section 3");
    /** Message sizes of the bandwidth sweeps; the peak is the largest bandwidth over them. */
    public static final int[] SIZES = {64 * 1024, 256 * 1024, 1024 * 1024};
    /** Bytes each bandwidth stream moves (at least {@link MncMeasurements#WINDOW} messages). */
    static final int STREAM_BYTES = 4 * 1024 * 1024;
    /** Message size of the link-sharing and policy runs. */
    static final int SHARE_BYTES = 64 * 1024;
    /** Medium and long messages of the latency rows. */
    static final int MEDIUM = 32 * 1024;
    static final int LONG = 256 * 1024;
    /** Bus rate multipliers of the "why not 2x" sweep. */
    static final double[] BUS_SCALE = {1, 1.5, 2, 3};
    /** The prefix of an explanation that makes a row a calibration point ({@link MncFiguresScenario} shows it as calibrated). */
    private record Def(Figure figure, Set<String> runs, Function<Map<String, Double>, Double> value) {
    }

    private final List<Def> defs = new ArrayList<>();
    private final Map<String, Supplier<Double>> runs = new LinkedHashMap<>();

    private final MncMeasurements bench;

    public MncFigures() {
        this(null);
    }

    /** The figures, their runs reporting cycles to {@code progress} (null: to nobody). */
    public MncFigures(org.flitkit.testbench.ProgressListener progress) {
        bench = new MncMeasurements(progress);
        Platform pci = Platform.paper();
        // ---- section 1, figure 2: two flows sharing one link
        run("single-flow", () -> bench.bandwidth(MncEnvs.paper(1, pci), pci, 2, List.of(flow(0, 1, 0, SHARE_BYTES, 32)))[0]);
        run("same-direction", () -> mean(bench.bandwidth(MncEnvs.paper(1, pci), pci, 2,
                List.of(flow(0, 1, 0, SHARE_BYTES, 32), flow(0, 1, 1, SHARE_BYTES, 32)))));
        run("opposite", () -> mean(bench.bandwidth(MncEnvs.paper(1, pci), pci, 2,
                List.of(flow(0, 1, 0, SHARE_BYTES, 32), flow(1, 0, 0, SHARE_BYTES, 32)))));
        define(Figure.builder("mnc-share-same-direction", "two flows on one link, same direction: each flow's share of one flow alone")
                .from(PAPER.at("Section 1, figure 2")).paper(PaperValue.of(50), "%").slow().build(),
                Set.of("single-flow", "same-direction"), m -> 100 * m.get("same-direction") / m.get("single-flow"));
        define(Figure.builder("mnc-share-opposite", "two flows on one link, opposite directions: each flow's share of one flow alone")
                .from(PAPER.at("Section 1, figure 2")).paper(PaperValue.of(80), "%").slow().build(),
                Set.of("single-flow", "opposite"), m -> 100 * m.get("opposite") / m.get("single-flow"));

        // ---- section 3, figure 7: peak bandwidth with 1 and 2 rails
        peakRuns("sw", MncEnvs::paper, pci, 1, 2);
        define(Figure.builder("mnc-peak-1-rail", "peak bandwidth, 1 rail (GM)").from(PAPER.at("Section 3, figure 7"))
                .paper(PaperValue.of(202), "MB/s").calibrated("the SEND and RECV engines' per-packet firmware cycles ("
                        + MncEnvs.PACKET_CYCLES + " at 66 MHz) are set so that this row gives 202 MB/s; the bus is calibrated on the "
                        + "single-transfer rates only").slow().build(), peakKeys("sw", 1), m -> peak(m, "sw", 1));
        define(Figure.builder("mnc-peak-2-rails", "peak bandwidth, 2 rails (MNC, software dispatch)").from(PAPER.at("Section 3, figure 7"))
                .paper(PaperValue.of(268), "MB/s").slow().build(), peakKeys("sw", 2), m -> peak(m, "sw", 2));
        define(Figure.builder("mnc-gain-2-rails", "2 rails over 1 rail, peak bandwidth").from(PAPER.at("Section 3, figure 7 and abstract"))
                .paper(PaperValue.of(34), "%").slow().build(), union(peakKeys("sw", 1), peakKeys("sw", 2)),
                m -> 100 * (peak(m, "sw", 2) / peak(m, "sw", 1) - 1));
        // why not 2x: the same two rails with the bus rates scaled up
        for (double s : BUS_SCALE) {
            Platform scaled = pci.withBus(pci.busReadMBps() * s, pci.busWriteMBps() * s);
            run("bus-x" + s, () -> bandwidthAt(MncEnvs.paper(2, scaled), scaled, SIZES[SIZES.length - 1]));
        }
        Set<String> busKeys = new LinkedHashSet<>();
        for (double s : BUS_SCALE) {
            busKeys.add("bus-x" + s);
        }
        define(Figure.builder("mnc-2-rails-bus-x2", "2 rails with the PCI rates doubled (630/744 MB/s), 1 MB messages")
                .from(PAPER.at("Section 3, bus factor")).paper(PaperValue.none(), "MB/s")
                .beyondPaper("the paper names the bus (315/372 MB/s) as the reason 2 rails do not double one; with the bus twice as fast "
                        + "the model's 2 rails come close to twice the 1-rail peak, the links' limit (sweep over the bus rate in docs/mnc.md)")
                .slow().build(), busKeys, m -> m.get("bus-x2.0"));

        // the same without the bus's master-switch cost: what the single-transfer rates alone predict
        Platform noSwitch = pci.withSwitchNs(0);
        peakRuns("sw-noswitch", MncEnvs::paper, noSwitch, 2);
        define(Figure.builder("mnc-peak-2-rails-no-switch-cost", "peak bandwidth, 2 rails, bus without the master-switch cost")
                .from(PAPER.at("Section 3, figure 7 and bus factor")).paper(PaperValue.of(268), "MB/s")
                .beyondPaper("a what-if: the bus with only the calibrated single-transfer rates: two SDMA engines then share 315 MB/s with no loss "
                        + "and the model overshoots the paper; the second master's cost (an assumption, 120 ns per switch of reader) "
                        + "is what brings the 2-rail row to the paper").slow().build(), peakKeys("sw-noswitch", 2), m -> peak(m, "sw-noswitch", 2));

        // ---- section 3, figure 8: medium and long message latency
        for (int rails = 1; rails <= 2; rails++) {
            int r = rails;
            run("lat-" + MEDIUM + "-" + r, () -> bench.latencyUs(MncEnvs.paper(r, pci), pci, MEDIUM));
            run("lat-" + LONG + "-" + r, () -> bench.latencyUs(MncEnvs.paper(r, pci), pci, LONG));
        }
        define(Figure.builder("mnc-latency-32k-1-rail", "one-way latency of a 32 KB message, 1 rail").from(PAPER.at("Section 3, figure 8"))
                .paper(PaperValue.none(), "us").beyondPaper("figure 8 gives curves without readable values; the row below compares the rails")
                .slow().build(), Set.of("lat-" + MEDIUM + "-1"), m -> m.get("lat-" + MEDIUM + "-1"));
        define(Figure.builder("mnc-latency-32k-2-rails", "one-way latency of a 32 KB message, 2 rails / 1 rail")
                .from(PAPER.at("Section 3, figure 8: lower with 2 rails")).paper(PaperValue.below(100), "%").slow().build(),
                Set.of("lat-" + MEDIUM + "-1", "lat-" + MEDIUM + "-2"), m -> 100 * m.get("lat-" + MEDIUM + "-2") / m.get("lat-" + MEDIUM + "-1"));
        define(Figure.builder("mnc-latency-256k-2-rails", "one-way latency of a 256 KB message, 2 rails / 1 rail")
                .from(PAPER.at("Section 3, figure 8: lower with 2 rails")).paper(PaperValue.below(100), "%").slow().build(),
                Set.of("lat-" + LONG + "-1", "lat-" + LONG + "-2"), m -> 100 * m.get("lat-" + LONG + "-2") / m.get("lat-" + LONG + "-1"));

        // ---- section 2.3.1: static and one-direction policies under skewed traffic (two flows from node 0 to node 1
        // on ports 0 and 2, which the static policy both binds to rail 0)
        for (Policy pol : Policy.values()) {
            run("skew-" + pol, () -> sum(bench.bandwidth(MncEnvs.paper(2, pci).withPolicy(pol), pci, 2,
                    List.of(flow(0, 1, 0, SHARE_BYTES, 32), flow(0, 1, 2, SHARE_BYTES, 32)))));
        }
        define(Figure.builder("mnc-skew-static", "skewed traffic, 2 rails: static policy's bandwidth / dynamic's")
                .from(PAPER.at("Section 2.3.1: static allocation leaves links idle")).paper(PaperValue.below(100), "%").slow().build(),
                Set.of("skew-STATIC", "skew-DYNAMIC"), m -> 100 * m.get("skew-STATIC") / m.get("skew-DYNAMIC"));
        define(Figure.builder("mnc-skew-one-direction", "skewed traffic, 2 rails: one-direction policy's bandwidth / dynamic's")
                .from(PAPER.at("Section 2.3.1: one-direction allocation multiplexes some links, leaves others idle"))
                .paper(PaperValue.below(100), "%").slow().build(),
                Set.of("skew-ONE_DIRECTION", "skew-DYNAMIC"), m -> 100 * m.get("skew-ONE_DIRECTION") / m.get("skew-DYNAMIC"));

        // ---- beyond the paper: more rails, a PCIe-class bus, the dispatch in hardware
        peakRuns("sw", MncEnvs::paper, pci, 3, 4);
        Platform pcie = Platform.pcie();
        for (int rails = 1; rails <= 4; rails++) {
            int r = rails;
            run("pcie-hw-" + r, () -> bandwidthAt(MncEnvs.params(r), pcie, SIZES[SIZES.length - 1]));
        }
        define(Figure.builder("mnc-peak-4-rails-pci", "peak bandwidth, 4 rails on the paper's PCI bus (software dispatch)")
                .from(PAPER.at("Section 3, outlook: more links")).paper(PaperValue.none(), "MB/s")
                .beyondPaper("the PCI bus caps any number of rails below its 315 MB/s read rate").slow().build(),
                peakKeys("sw", 4), m -> peak(m, "sw", 4));
        define(Figure.builder("mnc-peak-4-rails-pcie", "bandwidth, 4 rails on a PCIe-class bus (hardware dispatch, 1 MB messages)")
                .from(PAPER.at("Section 3, outlook: PCI-X, InfiniBand")).paper(PaperValue.none(), "MB/s")
                .beyondPaper("with a bus that does not limit, rails add up to the links' rate (4 x 202 MB/s)").slow().build(),
                Set.of("pcie-hw-4"), m -> m.get("pcie-hw-4"));
        // rails 1..4, 1 MB messages: the paper's PCI with software and hardware dispatch, and the PCIe-class bus
        Set<String> railKeys = new LinkedHashSet<>();
        for (int rails = 1; rails <= 4; rails++) {
            int r = rails;
            run("pci-sw-" + r, () -> bandwidthAt(MncEnvs.paper(r, pci), pci, SIZES[SIZES.length - 1]));
            run("pci-hw-" + r, () -> bandwidthAt(MncEnvs.params(r), pci, SIZES[SIZES.length - 1]));
            railKeys.addAll(List.of("pci-sw-" + r, "pci-hw-" + r, "pcie-hw-" + r));
        }
        define(Figure.builder("mnc-3-rails-pcie", "bandwidth, 3 rails on a PCIe-class bus (hardware dispatch, 1 MB messages)")
                .from(PAPER.at("Section 3, outlook: more links, PCI-X, InfiniBand")).paper(PaperValue.none(), "MB/s")
                .beyondPaper("3 x 201 MB/s when the bus does not limit; the rails sweep in docs/mnc.md has 1 to 4 rails on "
                        + "both buses with both dispatches").slow().build(), railKeys, m -> m.get("pcie-hw-3"));
        run("sw-16k", () -> bandwidthAt(MncEnvs.paper(2, pci), pci, 16 * 1024));
        run("one-rail-16k", () -> bandwidthAt(MncEnvs.paper(1, pci), pci, 16 * 1024));
        run("hw-16k", () -> bandwidthAt(MncEnvs.params(2), pci, 16 * 1024));
        define(Figure.builder("mnc-hw-dispatch-16k", "2 rails, 16 KB messages: bandwidth with the dispatch in hardware / in software")
                .from(PAPER.at("Section 3, dispatch overhead; outlook: link selection in the network hardware"))
                .paper(PaperValue.none(), "%").beyondPaper("SReq ahead of queued data and no host time between SAck and "
                        + "the chunks; the gain is largest where the paper says dispatch costs most, at the shortest striped messages")
                .slow().build(), Set.of("sw-16k", "hw-16k", "one-rail-16k"), m -> 100 * m.get("hw-16k") / m.get("sw-16k"));
    }

    private static MncMeasurements.Flow flow(int src, int dst, int port, int bytes, int messages) {
        return new MncMeasurements.Flow(src, dst, port, bytes, messages);
    }

    private void run(String key, Supplier<Double> s) {
        runs.putIfAbsent(key, s);
    }

    private void define(Figure f, Set<String> keys, Function<Map<String, Double>, Double> value) {
        defs.add(new Def(f, keys, value));
    }

    private void peakRuns(String tag, java.util.function.BiFunction<Integer, Platform, MncParams> params, Platform platform, int... rails) {
        for (int r : rails) {
            for (int size : SIZES) {
                run(tag + "-" + r + "-" + size, () -> bandwidthAt(params.apply(r, platform), platform, size));
            }
        }
    }

    private static Set<String> peakKeys(String tag, int rails) {
        Set<String> s = new LinkedHashSet<>();
        for (int size : SIZES) {
            s.add(tag + "-" + rails + "-" + size);
        }
        return s;
    }

    private static double peak(Map<String, Double> m, String tag, int rails) {
        double best = 0;
        for (String k : peakKeys(tag, rails)) {
            best = Math.max(best, m.get(k));
        }
        return best;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> s = new LinkedHashSet<>(a);
        s.addAll(b);
        return s;
    }

    /** MB/s of one stream of {@code size}-byte messages from node 0 to node 1. */
    public double bandwidthAt(MncParams p, Platform platform, int size) {
        int messages = Math.max(MncMeasurements.WINDOW, STREAM_BYTES / size);
        return bench.bandwidth(p, platform, 2, List.of(flow(0, 1, 0, size, messages)))[0];
    }

    private static double mean(double[] v) {
        return sum(v) / v.length;
    }

    private static double sum(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s;
    }

    @Override
    public List<Parameter> parameters() {
        Platform p = Platform.paper();
        MncParams n = MncParams.of(2);
        return List.of(
                Parameter.of("model clock", p.clockMhz(), "MHz", Origin.PAPER, PAPER.at("Introduction").label() + ": 64-bit / 66 MHz PCI"),
                Parameter.of("PCI read (host to NIC)", p.busReadMBps(), "MB/s", Origin.CALIBRATED, "the paper's measured single-transfer rate (Section 3)"),
                Parameter.of("PCI write (NIC to host)", p.busWriteMBps(), "MB/s", Origin.CALIBRATED, "the paper's measured single-transfer rate (Section 3)"),
                Parameter.of("burst between re-arbitrations", p.burstBytes(), "bytes", Origin.ASSUMPTION, "a host-bridge prefetch buffer"),
                Parameter.of("read after another master's read", p.switchNs(), "ns", Origin.ASSUMPTION,
                        "one DRAM access: the bridge restarts its prefetch; a single master never pays it"),
                Parameter.of("link rate", p.linkMBps(), "MB/s", Origin.PAPER, "the paper's Myrinet 2000 links, 2.0 Gb/s"),
                Parameter.of("link latency NIC to NIC", p.linkLatencyNs(), "ns", Origin.PAPER, "the paper's about 3 us (Section 3)"),
                Parameter.of("header bytes per packet", p.headerBytes(), "bytes", Origin.ASSUMPTION, "route, GM header and CRC"),
                Parameter.of("packet size", n.packetBytes(), "bytes", Origin.ASSUMPTION, "GM's MTU"),
                Parameter.of("firmware cycles per packet, SEND and RECV", MncEnvs.PACKET_CYCLES, "cycles", Origin.CALIBRATED,
                        "on the paper's 1-rail peak, 202 MB/s (mnc-peak-1-rail)"),
                Parameter.of("software dispatch per striped message", MncEnvs.SOFTWARE_DISPATCH_NS, "ns", Origin.ASSUMPTION,
                        "the SAck's event write, polling, link choice, posting two descriptors"),
                Parameter.of("striping threshold", n.stripeThreshold(), "bytes", Origin.ASSUMPTION, "the paper's \"long\" messages"),
                Parameter.of("send and receive buffers per NIC", n.sendSlots(), "each", Origin.ASSUMPTION, "double buffering, as GM"));
    }

    @Override
    public String name() {
        return "mnc";
    }

    @Override
    public List<Figure> figures() {
        return defs.stream().map(Def::figure).toList();
    }

    @Override
    public Results measure(Set<String> ids, Executor executor) {
        List<Def> wanted = select(defs, Def::figure, ids);
        Map<String, Double> points = runPoints(wanted, Def::runs, k -> runs.get(k).get(), executor);
        List<Measurement> ms = wanted.stream().map(d -> Measurement.of(d.figure().id(), d.value().apply(points))).toList();
        List<Table> tables = new ArrayList<>();
        if (points.keySet().containsAll(Set.of("bus-x1.0", "bus-x3.0"))) {
            List<double[]> rows = new ArrayList<>();
            for (double s : BUS_SCALE) {
                rows.add(new double[] {s, pci().busReadMBps() * s, points.get("bus-x" + s)});
            }
            tables.add(new Table("mnc-bus-sweep", List.of("bus_scale", "read_MBps", "two_rails_MBps"), rows));
        }
        if (points.containsKey("pci-sw-4") && points.containsKey("pcie-hw-4")) {
            List<double[]> rows = new ArrayList<>();
            for (int r = 1; r <= 4; r++) {
                rows.add(new double[] {r, points.get("pci-sw-" + r), points.get("pci-hw-" + r), points.get("pcie-hw-" + r)});
            }
            tables.add(new Table("mnc-rails-sweep", List.of("rails", "pci_software_MBps", "pci_hardware_MBps", "pcie_hardware_MBps"), rows));
        }
        if (points.keySet().containsAll(Set.of("sw-16k", "hw-16k", "one-rail-16k"))) {
            tables.add(new Table("mnc-dispatch-16k", List.of("one_rail_MBps", "two_rails_software_MBps", "two_rails_hardware_MBps"),
                    List.<double[]>of(new double[] {points.get("one-rail-16k"), points.get("sw-16k"), points.get("hw-16k")})));
        }
        return new Results(ms, tables);
    }

    private static Platform pci() {
        return Platform.paper();
    }
}
