package org.flitkit.env.chpp;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flitkit.env.chpp.XbarLoad;
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
import org.flitkit.rtl.chpp.xbar.DmaCrossbar;
import org.flitkit.testbench.ProgressListener;

/**
 * The cHPP intra-DMA crossbar's throughput (paper section 5.4, figure 19) measured on the RTL {@link DmaCrossbar}
 * with saturating uniform random 128-byte PUTs ({@link XbarLoad}): 4x2 and 4x4 against the paper's 2.6 and
 * 2.8 GB/s, and the five configurations of figure 19. docs/chpp-dma.md, "Intra-DMA crossbar".
 */
public final class ChppXbarFigures extends PointFigures<ChppXbarFigures.Key, XbarLoad.Result> {
    public static final Citation PAPER = new Citation("一种低开销的面向节点内互连的网络接口控制器 (A low-overhead network interface "
            + "controller for intra-node interconnect; Su, Cao, Liu, Wang, Liu, An, Sun)", "Section 5.4, Fig. 19", ChppFigures.SHORT_TITLE);
    static final String SWEEP = "chpp-xbar-sweep";
    static final String UNIT = "GB/s per port (payload)";
    static final String WHY = "the paper measured the crossbar behind whole DMA engines, this row the bare crossbar with saturating "
            + "sources and 18-beat buffers (the paper gives neither its VC buffer depth nor whether headers count); chpp-xbar-sweep shows "
            + "the 9-beat buffers and the all-bytes count beside the paper's points";

    /** A measured point: configuration and VC buffer depth (beats). */
    record Key(int ports, int vcs, int depth) {
    }

    private final ProgressListener progress;

    public ChppXbarFigures() {
        this(null);
    }

    /**
     * Figures whose loads tell {@code progress} (null: nobody) of their cycles, each load as one run of its
     * warm-up and window (the cycles after its reset, as a testbench counts them), e.g. a {@link org.flitkit.testbench.CycleTally}.
     */
    public ChppXbarFigures(ProgressListener progress) {
        this.progress = progress;
        defineAll();
    }

    @Override
    public List<Parameter> parameters() {
        return List.of(
                Parameter.of("VC buffer", org.flitkit.rtl.chpp.xbar.DmaCrossbar.DEFAULT_VC_DEPTH, "beats (two 9-beat packets)", Origin.ASSUMPTION,
                        "the paper gives no VC buffer depth; chpp-xbar-sweep also shows 9 beats"));
    }

    @Override
    public String name() {
        return "chpp-xbar";
    }

    @Override
    protected XbarLoad.Result run(Key k) {
        long cycles = XbarLoad.WARMUP + XbarLoad.WINDOW;
        if (progress != null) {
            progress.progress("run", 0, 0, cycles);
        }
        XbarLoad.Result r = XbarLoad.saturation(k.ports(), k.vcs(), k.depth(), XbarLoad.MTU_PACKET_BEATS, XbarLoad.WARMUP, XbarLoad.WINDOW,
                XbarLoad.SEED);
        if (progress != null) {
            progress.progress("run", cycles, 0, cycles);
        }
        return r;
    }

    @Override
    protected List<Table> tables(Set<String> ids, Map<Key, XbarLoad.Result> points) {
        // the table of every point only from a run of the sweep, so a run of the fast figures alone leaves it as it is
        if (!ids.contains(SWEEP)) {
            return List.of();
        }
        List<double[]> rows = new ArrayList<>();
        points.forEach((k, r) -> rows.add(new double[] {k.ports(), k.vcs(), k.depth(), r.window(), r.beats(), r.packets(), r.perPort(),
            r.gbps(), r.payloadGbps()}));
        return List.of(new Table("chpp-xbar-points", List.of("ports", "vcs", "vc_depth_beats", "window_cycles", "beats", "packets",
                "beats_per_cycle_per_port", "gbps_all_bytes", "gbps_payload"), rows));
    }

    private void defineAll() {
        int d = DmaCrossbar.DEFAULT_VC_DEPTH;
        int one = XbarLoad.MTU_PACKET_BEATS;
        point("chpp-xbar-4x2", "saturation, 4 ports x 2 Dest-Mod VCs, uniform random 128-byte PUTs", 4, 2, 2.6);
        point("chpp-xbar-4x4", "saturation, 4 ports x 4 Dest-Mod VCs (VOQ), uniform random 128-byte PUTs", 4, 4, 2.8);
        int[][] cfg = XbarLoad.PAPER_CONFIGS;
        double[] xs = new double[cfg.length];
        List<Key> deflt = new ArrayList<>();
        List<Key> small = new ArrayList<>();
        for (int i = 0; i < cfg.length; i++) {
            xs[i] = i + 1;
            deflt.add(new Key(cfg[i][0], cfg[i][1], d));
            small.add(new Key(cfg[i][0], cfg[i][1], one));
        }
        Set<Key> needs = new LinkedHashSet<>(deflt);
        needs.addAll(small);
        Key value = new Key(16, 4, d);
        define(Figure.builder(SWEEP, "saturation of the five configurations of Fig. 19 (value: 16 ports x 4 VCs)")
                .from(PAPER).paper(PaperValue.none(), UNIT)
                .beyondPaper("the paper gives numbers for 4x2 and 4x4 only; its trend (more VCs raise, more ports lower the throughput) "
                        + "is what the other points are compared with")
                .curve(Curve.of("configuration: 1 = 4x2, 2 = 4x4, 3 = 8x2, 4 = 8x4, 5 = 16x4 (ports x VCs)", UNIT)
                        .withPaper(Series.paperPoints("paper: 4x2 2.6 GB/s and 4x4 2.8 GB/s", new double[] {1, 2}, new double[] {2.6, 2.8})))
                .slow().build(), needs, p -> new Measurement(SWEEP, p.get(value).payloadGbps(), List.of(
                        Series.model("RTL: VC buffers of 18 beats (two packets; the default) - payload", xs,
                                deflt.stream().mapToDouble(k -> p.get(k).payloadGbps()).toArray()),
                        Series.model("RTL: VC buffers of 9 beats (one packet) - payload", xs,
                                small.stream().mapToDouble(k -> p.get(k).payloadGbps()).toArray()),
                        Series.model("RTL: 18 beats - all bytes (header beats included)", xs,
                                deflt.stream().mapToDouble(k -> p.get(k).gbps()).toArray()))));
    }

    private void point(String id, String title, int ports, int vcs, double paper) {
        Key k = new Key(ports, vcs, DmaCrossbar.DEFAULT_VC_DEPTH);
        define(Figure.builder(id, title).from(PAPER).paper(PaperValue.of(paper), UNIT)
                .explained(WHY).build(), Set.of(k), p -> Measurement.of(id, p.get(k).payloadGbps()));
    }
}
