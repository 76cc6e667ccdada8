package org.flitkit.env.nic;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.env.host.PcieParams;
import org.flitkit.env.nic.fabric.FabricEnv;
import org.flitkit.env.nic.fabric.NicFabricBoard;
import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.env.nic.fabric.Th2Parameters;
import org.flitkit.env.nic.host.HostSoftware;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.env.nic.host.Target;
import org.flitkit.env.nrc.NrcFigures;
import org.flitkit.env.nrc.chip.FabricSpec;
import org.flitkit.figures.Citation;
import org.flitkit.figures.Figure;
import org.flitkit.figures.Measurement;
import org.flitkit.figures.OneRunFigures;
import org.flitkit.figures.PaperValue;
import org.flitkit.figures.Parameter;
import org.flitkit.figures.Series;
import org.flitkit.figures.Table;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.NrcChip;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;

/**
 * The TH-2 management paper's end-to-end figures (spec 20-th2-management.md, "Measured figures"; the paper's
 * Sections 4.1 and 4.3) measured on whole chips: host software API, PCIe, the server's {@code NicChip} (its link
 * layer), cables and a chain of three whole {@code NrcChip}s (link layers, switch cores, relay stations, NMA) on
 * {@link FabricEnv}, all at the chips' clock (the link frame clock, docs/th2-link.md). N back-to-back transactions
 * (one outstanding, as the paper's loop) to the NRC at the far end of the server's cable, and a read sweep over the
 * chain's hops 0..2 for the paper's latency model (processing + (hops + 1) x per-hop round trip). Host software
 * time is a parameter ({@link HostSoftware}, 0 here): the figures say what the model covers.
 */
public final class NicFigures extends OneRunFigures<NicFigures.Run> {
    /** Transactions per kind, as the paper's loop. */
    public static final int N = 1000;
    /** Reads per hop count of the sweep. */
    public static final int N_PER_HOP = 200;
    /** The chain the server's NIC is cabled to: NRC 0 (0 hops), NRC 1 (1 hop), NRC 2 (2 hops). */
    public static final FabricSpec CHAIN = FabricSpec.CHAIN3;

    /** Where the cycles of one register read go, mean over the loop (doorbell write to the answer in the MPQ). */
    public record Breakdown(String[] parts, double[] cycles) {
        public double total() {
            double t = 0;
            for (double c : cycles) {
                t += c;
            }
            return t;
        }
    }

    /** Mean latencies (cycles) of the three loops to the adjacent NRC, the reads by hops, and the read's breakdown. */
    public record Run(double read1, double write1, double read2, double[] readByHops, Breakdown breakdown) {
        double[] hops() {
            return Series.countFrom(0, readByHops.length);
        }

        /** The per-hop round trip: the slope of the reads against the hops, cycles. */
        public double perHop() {
            return Series.slope(hops(), readByHops);
        }

        /** The paper's processing latency: the fit at 0 hops less the one hop that reaches the adjacent NRC, cycles. */
        public double processing() {
            return Series.intercept(hops(), readByHops) - perHop();
        }
    }

    public static final String HOST_MMIO = "host: doorbell write reaches the NIC (PCIe posted write)";
    public static final String NIC_FETCH = "NIC: doorbell to descriptor read";
    public static final String PCIE_READ = "PCIe: descriptor read round trip";
    public static final String NIC_SEND = "NIC: descriptor to the first flit at its link port";
    public static final String LINK_OUT = "NIC link layer, cable, NRC link layer: first flit to the switch core";
    public static final String CORE_IN = "NRC switch core: first flit to the relay stations";
    public static final String NRC_RS_IN = "NRC: relay stations to the NMA (20-bit)";
    public static final String NRC_NMA = "NRC: NMA (check, register read, response)";
    public static final String NRC_RS_OUT = "NRC: NMA to the switch core (relay stations, last flit)";
    public static final String CORE_OUT = "NRC switch core: last flit to the link layer";
    public static final String LINK_BACK = "NRC link layer, cable, NIC link layer: last flit to the NIC";
    public static final String NIC_RECV = "NIC: last flit to the MPQ write";
    public static final String PCIE_WRITE = "PCIe: MPQ write until visible to the host";
    static final String[] PARTS = {HOST_MMIO, NIC_FETCH, PCIE_READ, NIC_SEND, LINK_OUT, CORE_IN, NRC_RS_IN, NRC_NMA, NRC_RS_OUT, CORE_OUT,
        LINK_BACK, NIC_RECV, PCIE_WRITE};

    private final long seed;
    private final int n;

    public NicFigures() {
        this(RunConfig.DEFAULT_SEED, N);
    }

    public NicFigures(long seed, int n) {
        this.seed = seed;
        this.n = n;
        define();
    }

    @Override
    public String name() {
        return "nic";
    }

    @Override
    public List<Parameter> parameters() {
        return Th2Parameters.wholeChips();
    }

    @Override
    protected Run run() {
        return measure(seed, n);
    }

    @Override
    protected List<Table> tables(Run run) {
        return List.of(table(run));
    }

    public static Table table(Run run) {
        List<double[]> rows = new ArrayList<>();
        Breakdown b = run.breakdown();
        for (int i = 0; i < b.parts().length; i++) {
            rows.add(new double[] {i, b.cycles()[i], micros(b.cycles()[i])});
        }
        return new Table("nic-latency-breakdown", List.of("part", "cycles", "us"), rows);
    }

    private void define() {
        Citation fig8 = NrcFigures.PAPER.at("Section 4.1, Fig. 8(a)-(c)");
        Citation fig8d = NrcFigures.PAPER.at("Section 4.1, Fig. 8(d)");
        Citation model = NrcFigures.PAPER.at("Section 4.3 (latency model)");
        String software = "the host software's time (a parameter set to 0: the paper does not break it out); the model's part is the "
                + "hardware path at the link frame clock, PCIe at 600 ns per read round trip and 300 ns per posted write, "
                + Th2Machine.CABLE_LATENCY + "-cycle cables and whole chips";
        def(Figure.builder("nic-reg-read", "in-band register read end to end: doorbell to answer in the MPQ (N = 1000 loop, the NRC on the server's cable)")
                .from(fig8).paper(PaperValue.of(6.73), "us").notModelled(software).slow().build(),
                r -> Measurement.of("nic-reg-read", micros(r.read1())));
        def(Figure.builder("nic-write-vs-read", "register write / read latency end to end").from(fig8)
                .paper(PaperValue.below(1), "ratio").slow().build(),
                r -> Measurement.of("nic-write-vs-read", r.write1() / r.read1()));
        def(Figure.builder("nic-read2-vs-read1", "2-register read / 1-register read end to end").from(fig8d)
                .paper(PaperValue.between(1, 2), "ratio").slow().build(),
                r -> Measurement.of("nic-read2-vs-read1", r.read2() / r.read1()));
        def(Figure.builder("nic-processing", "register read processing latency: the fit over hops 0..2 at 0 hops, less one hop (a chain of 3 whole NRCs)")
                .from(model).paper(PaperValue.of(5.9597), "us").notModelled(software).slow().build(),
                r -> Measurement.of("nic-processing", micros(r.processing())));
        def(Figure.builder("nic-hop-round-trip", "per-hop round trip: slope of the reads over hops 0..2 (transit through switch cores)").from(model)
                .paper(PaperValue.of(0.8762), "us").slow().build(),
                r -> Measurement.of("nic-hop-round-trip", micros(r.perHop())));
    }

    /** Microseconds of {@code cycles} at the chips' clock (the link frame clock). */
    public static double micros(double cycles) {
        return cycles / (LinkFrame.clockHz() / 1e6);
    }

    /** The environment of the figures: the chain, fast E2PROM timing (no E2PROM access is timed), PCIe at the chips' clock. */
    public static FabricEnv env(long seed) {
        return new FabricEnv(CHAIN, RunConfig.of(seed, 0), EepParams.FAST, Th2Machine.CABLE_LATENCY, PcieParams.th2(LinkFrame.clockHz() / 1e6),
                HostSoftware.NONE);
    }

    /** The loops of {@code n} transactions on a fresh chain. */
    public static Run measure(long seed, int n) {
        try (FabricEnv env = env(seed)) {
            return measure(env, n);
        }
    }

    public static Run measure(FabricEnv env, int n) {
        Probe probe = env.tb.add(new Probe(env));
        Target nrc = env.target(0);
        double[] sums = new double[PARTS.length];
        double read1 = loop(env, n, () -> MgmtRequest.readRegisters(nrc, List.of(0x008)), probe, sums);
        double write1 = loop(env, n, () -> MgmtRequest.writeRegisters(nrc, List.of(0x008), List.of(0x5AL)), probe, null);
        double read2 = loop(env, n, () -> MgmtRequest.readRegisters(nrc, List.of(0x008, 0x009)), probe, null);
        for (int i = 0; i < sums.length; i++) {
            sums[i] /= n;
        }
        int perHop = Math.max(1, Math.min(n, N_PER_HOP));
        double[] byHops = new double[env.spec.chips()];
        for (int h = 0; h < byHops.length; h++) {
            Target t = env.target(h);
            byHops[h] = loop(env, perHop, () -> MgmtRequest.readRegisters(t, List.of(0x008)), probe, null);
        }
        return new Run(read1, write1, read2, byHops, new Breakdown(PARTS, sums));
    }

    private static double loop(FabricEnv env, int n, java.util.function.Supplier<MgmtRequest> req, Probe probe, double[] sums) {
        long total = 0;
        for (int i = 0; i < n; i++) {
            probe.clear();
            int tid = env.endpoint.send(req.get());
            long t0 = env.tb.cycle();
            MgmtResult r = env.endpoint.receive(tid, 100_000);
            if (!(r instanceof MgmtResult.Ok ok)) {
                throw new IllegalStateException("figure loop: transaction " + i + " ended " + r);
            }
            total += ok.latency();
            if (sums != null) {
                long[] t = {t0, probe.mmio, probe.read, probe.cpl, probe.nicOut, probe.coreIn, probe.toRs, probe.toNma, probe.fromNma, probe.fromRs,
                    probe.coreOut, probe.nicIn, probe.mpqWrite, t0 + ok.latency()};
                for (int k = 0; k < PARTS.length; k++) {
                    if (t[k + 1] < t[k]) {
                        throw new IllegalStateException("figure loop: event " + PARTS[k] + " out of order in transaction " + i);
                    }
                    sums[k] += t[k + 1] - t[k];
                }
            }
        }
        return (double) total / n;
    }

    /** Cycles of the events of one transaction along the path to NRC 0 (the last of each kind). */
    static final class Probe extends Component {
        private final FabricEnv env;
        private final int port;
        private final long doorbell;
        private final long mpqLo;
        private final long mpqHi;
        long mmio;
        long read;
        long cpl;
        long nicOut;
        long coreIn;
        long toRs;
        long toNma;
        long fromNma;
        long fromRs;
        long coreOut;
        long nicIn;
        long mpqWrite;
        private boolean inWrite;

        Probe(FabricEnv env) {
            super("latency_probe");
            this.env = env;
            this.port = env.spec.serverPort();
            doorbell = NicHost.bar(NicEnv.REQUEST_VP, NicHost.SDQ_TAIL);
            mpqLo = org.flitkit.env.nic.host.NicDriver.RING_BASE + NicEnv.REQUEST_VP * org.flitkit.env.nic.host.NicDriver.RING_STRIDE
                    + org.flitkit.env.nic.host.NicDriver.MPQ_OFFSET;
            mpqHi = mpqLo + ((long) NicHost.MPQ_ENTRY_BYTES << NicEnv.RING_LOG2);
        }

        void clear() {
            mmio = read = cpl = nicOut = coreIn = toRs = toNma = fromNma = fromRs = coreOut = nicIn = mpqWrite = -1;
        }

        private boolean fire(org.flitkit.hdl.lib.Decoupled<?> d) {
            return sim().peekBool(d.valid) && sim().peekBool(d.ready);
        }

        private long kind(org.flitkit.hdl.UInt flit) {
            return sim().peekBig(flit).shiftRight(Th2.FLIT_BITS - 2).longValue() & 3;
        }

        @Override
        protected void sample() {
            NicFabricBoard b = env.dut;
            NrcChip nrc = b.nrcs[0];
            long now = cycle();
            if (fire(b.mmio) && sim().peek(b.mmio.bits.addr) == doorbell) {
                mmio = now;
            }
            if (fire(b.dmaRq)) {
                boolean w = sim().peekBool(b.dmaRq.bits.write);
                long a = sim().peek(b.dmaRq.bits.addr);
                if (!w) {
                    read = now;
                } else if (!inWrite && a >= mpqLo && a < mpqHi) {
                    mpqWrite = now;
                }
                inWrite = w && !sim().peekBool(b.dmaRq.bits.last);
            }
            if (fire(b.dmaCpl)) {
                cpl = now;
            }
            var nicLinkOut = b.nicChip.nic.linkOut;
            if (fire(nicLinkOut) && kind(nicLinkOut.bits) == Th2.KIND_HEAD) {
                nicOut = now;
            }
            var in = nrc.core.in.get(port);
            if (sim().peekBool(in.valid) && kind(in.bits) == Th2.KIND_HEAD) {
                coreIn = now;
            }
            var rs = nrc.core.toRs.get(port);
            if (fire(rs) && kind(rs.bits) == Th2.KIND_HEAD) {
                toRs = now;
            }
            if (fire(nrc.nrc.plane.toNma)) {
                toNma = now;
            }
            if (fire(nrc.nrc.plane.fromNma)) {
                fromNma = now;
            }
            var back = nrc.core.fromRs.get(port);
            if (fire(back) && kind(back.bits) == Th2.KIND_TAIL) {
                fromRs = now;
            }
            var out = nrc.core.out.get(port);
            if (fire(out) && kind(out.bits) == Th2.KIND_TAIL) {
                coreOut = now;
            }
            var nicLinkIn = b.nicChip.nic.linkIn;
            if (fire(nicLinkIn) && kind(nicLinkIn.bits) == Th2.KIND_TAIL) {
                nicIn = now;
            }
        }
    }
}
