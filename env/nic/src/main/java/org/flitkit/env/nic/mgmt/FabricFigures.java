package org.flitkit.env.nic.mgmt;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.nic.fabric.ServerNic;
import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.env.nic.fabric.Th2Parameters;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.env.nrc.NrcFigures;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.figures.Citation;
import org.flitkit.figures.Curve;
import org.flitkit.figures.Figure;
import org.flitkit.figures.Measurement;
import org.flitkit.figures.OneRunFigures;
import org.flitkit.figures.PaperValue;
import org.flitkit.figures.Parameter;
import org.flitkit.figures.Series;
import org.flitkit.figures.Table;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.EepParams;

/**
 * The TH-2 management paper's system figures (spec 20-th2-management.md, "Measured figures"; the paper's Sections 4.3
 * and 4.4) measured by the management server on the whole machine of whole chips (docs/th2-management.md): register
 * read latency against hops 0..8 and its fit (Fig. 10), topology discovery of the full machine, and the status scan's
 * time and traffic from scans of one NRC at each distance weighted by the machine's histogram of distances (Table 1).
 * One request outstanding at a time, as the paper's loops.
 */
public final class FabricFigures extends OneRunFigures<FabricFigures.Run> {
    /** The paper's scan: 10 registers of each of 24 ports, two per request. */
    public static final int SCAN_REQUESTS_PER_NRC = StatusScan.REGISTERS.size() * Th2.NRC_PORTS / 2;
    /** The paper's DP and DT of the scan estimate, us. */
    public static final double PAPER_DP = 7.40;
    public static final double PAPER_DT = 0.88;
    /** The link rate the paper compares the scan traffic with, Gbit/s. */
    public static final double LINK_GBPS = 224;
    static final double GIBIT = 1L << 30;

    /** What one measurement of the machine gives. */
    public record Run(String topology, int nrcs, int nics, double[] hops, double[] latencyUs, double processingUs, double perHopUs, int[] histogram,
            double discoveryUs, long discoveryRequests, double[] scanOneNrcUs, long scanRequestsPerNrc, double scanSeconds, double scanGibit) {
        public double scanGbps() {
            return scanGibit / scanSeconds;
        }
    }

    private final String topology;

    public FabricFigures() {
        this("th2");
    }

    /** Figures measured on the named topology ({@link Th2FatTree#named}); the paper's are the whole machine's. */
    public FabricFigures(String topology) {
        this.topology = topology;
        define();
    }

    @Override
    public String name() {
        return "fabric";
    }

    @Override
    public List<Parameter> parameters() {
        return Th2Parameters.wholeChips();
    }

    @Override
    protected Run run() {
        return measure(topology, 2);
    }

    @Override
    public List<Table> tables(Run r) {
        List<double[]> lat = new ArrayList<>();
        for (int i = 0; i < r.hops.length; i++) {
            lat.add(new double[] {r.hops[i], r.latencyUs[i], r.processingUs + (r.hops[i] + 1) * r.perHopUs});
        }
        List<double[]> dist = new ArrayList<>();
        for (int d = 0; d < r.histogram.length; d++) {
            if (r.histogram[d] > 0) {
                dist.add(new double[] {d, r.histogram[d], r.scanOneNrcUs[d]});
            }
        }
        return List.of(new Table("fabric-read-latency", List.of("hops", "us", "fit_us"), lat),
                new Table("fabric-distances", List.of("nrcs_before", "nrcs", "scan_one_nrc_us"), dist),
                new Table("fabric-scan-estimates", List.of("hops_counted_from", "paper_formula_s"),
                        List.of(new double[] {0, paperFormula(r.histogram, 0)}, new double[] {1, paperFormula(r.histogram, 1)})));
    }

    /** The paper's scan estimate M x sum_d n_d (DP + (d + from) DT) over the model's histogram, seconds. */
    public static double paperFormula(int[] histogram, int from) {
        double us = 0;
        for (int d = 0; d < histogram.length; d++) {
            us += (double) histogram[d] * SCAN_REQUESTS_PER_NRC * (PAPER_DP + (d + from) * PAPER_DT);
        }
        return us / 1e6;
    }

    private void define() {
        Citation fig10 = NrcFigures.PAPER.at("Section 4.3, Fig. 10 (latency against hops)");
        Citation discovery = NrcFigures.PAPER.at("Section 4.4 (topology discovery of the whole system)");
        Citation scan = NrcFigures.PAPER.at("Section 4.4, Table 1 (status scan)");
        String hardware = "the host software's time and the optical cables' length: the model is the hardware path at 424.24 MHz (the link "
                + "frame clock) with 8-cycle (19 ns) cables (an assumption) and no software time";
        def(Figure.builder("fabric-hop-round-trip", "per-hop round trip: slope of register-read latency against hops 0..8 (whole chips, transit through switch cores)")
                .from(fig10).paper(PaperValue.of(0.8762), "us").slow()
                .curve(Curve.of("hops (NRCs crossed before the target)", "us").withSlope("paper: 0.8762 us per hop", 0.8762)).build(),
                r -> new Measurement("fabric-hop-round-trip", r.perHopUs, List.of(Series.model("model", r.hops, r.latencyUs))));
        def(Figure.builder("fabric-processing", "processing latency: the fit's intercept (latency = processing + (hops + 1) x per-hop)")
                .from(fig10).paper(PaperValue.of(5.9597), "us").notModelled(hardware).slow().build(),
                r -> Measurement.of("fabric-processing", r.processingUs));
        def(Figure.builder("fabric-discovery", "topology discovery of the whole machine from NEIGHBOUR reads, idle network, one request at a time")
                .from(discovery).paper(PaperValue.of(472_822), "us").slow().build(),
                r -> Measurement.of("fabric-discovery", r.discoveryUs));
        def(Figure.builder("fabric-scan-time", "status scan of every NRC (120 requests each): scans of one NRC per distance, summed over the histogram")
                .from(scan).paper(PaperValue.of(9.38), "s").slow().build(),
                r -> Measurement.of("fabric-scan-time", r.scanSeconds));
        def(Figure.builder("fabric-scan-traffic", "scan traffic both ways: requests and answers of 4 x 198-bit flits")
                .from(scan).paper(PaperValue.of(1.0367), "Gibit").slow().build(),
                r -> Measurement.of("fabric-scan-traffic", r.scanGibit));
        def(Figure.builder("fabric-scan-rate", "average scan traffic: traffic over scan time")
                .from(scan).paper(PaperValue.of(0.1105), "Gibit/s").slow().build(),
                r -> Measurement.of("fabric-scan-rate", r.scanGbps()));
        def(Figure.builder("fabric-scan-share", "average scan traffic as a share of one 224 Gbit/s link")
                .from(scan).paper(PaperValue.of(0.0493), "%").slow().build(),
                r -> Measurement.of("fabric-scan-share", r.scanGbps() / LINK_GBPS * 100));
    }

    /** Builds the machine with the server on node 0 and measures every figure (minutes on the whole machine). */
    public static Run measure(String topology, int threads) {
        Th2FatTree tree = Th2FatTree.named(topology);
        try (ManagementServer ms = new ManagementServer(tree, new Th2Machine.Protos(EepParams.DEFAULT), threads, 0, 1, ManagementServer.TIMEOUT)) {
            ms.powerUp(200_000);
            // Fig. 10: CHIP_ID of the first NRC found h NRCs away, h = 1.. (hops h - 1), polled every cycle
            List<double[]> points = new ArrayList<>();
            for (int h = 1; ; h++) {
                Th2FatTree.Route route;
                try {
                    route = tree.routeFromNode(0, h);
                } catch (IllegalArgumentException e) {
                    break;
                }
                ServerNic.Answer a = ms.server.readRegister(route, 0x000, 1, ManagementServer.TIMEOUT);
                if (!(a.result() instanceof MgmtResult.Ok)) {
                    throw new IllegalStateException("the read of NRC " + route.target() + " ended " + a.result());
                }
                points.add(new double[] {h - 1, ManagementServer.micros(a.cycles())});
            }
            double[] x = points.stream().mapToDouble(p -> p[0]).toArray();
            double[] y = points.stream().mapToDouble(p -> p[1]).toArray();
            double[] fit = fit(x, y);
            Discovery.Result found = ms.discover((f, d) -> { });
            if (!found.unreached().isEmpty() || found.nrcs().size() != tree.nrcs().size()) {
                throw new IllegalStateException("discovery found " + found.nrcs().size() + " of " + tree.nrcs().size() + " NRCs: " + found.unreached());
            }
            int[] histogram = new int[Th2.MAX_HOPS + 1];
            found.nrcs().forEach(n -> histogram[n.distance()]++);
            double[] oneNrc = new double[histogram.length];
            long perNrc = 0;
            double scanUs = 0;
            StatusScan scan = new StatusScan(ms.pipe, 2, false);
            for (int d = 0; d < histogram.length; d++) {
                if (histogram[d] == 0) {
                    continue;
                }
                int dist = d;
                Discovery.FoundNrc one = found.nrcs().stream().filter(n -> n.distance() == dist).findFirst().orElseThrow();
                StatusScan.Snapshot s = scan.scan(List.of(one), ms.machine.fabric);
                if (s.failures() > 0) {
                    throw new IllegalStateException("the scan of NRC " + one.chipId() + " had " + s.failures() + " failed requests");
                }
                oneNrc[d] = ManagementServer.micros(s.cycles());
                perNrc = s.requests();
                scanUs += histogram[d] * oneNrc[d];
            }
            // every request and its answer is one management packet of 4 flits
            double gibit = 2.0 * perNrc * found.nrcs().size() * Th2.PACKET_BITS / GIBIT;
            return new Run(topology, tree.nrcs().size(), tree.nodes().size(), x, y, fit[0], fit[1], histogram, ManagementServer.micros(found.cycles()),
                    found.requests(), oneNrc, perNrc, scanUs / 1e6, gibit);
        }
    }

    /** Least squares of y = a + (x + 1) b: {a, b}. */
    static double[] fit(double[] x, double[] y) {
        int n = x.length;
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < n; i++) {
            double u = x[i] + 1;
            sx += u;
            sy += y[i];
            sxx += u * u;
            sxy += u * y[i];
        }
        double b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        return new double[] {(sy - b * sx) / n, b};
    }
}
