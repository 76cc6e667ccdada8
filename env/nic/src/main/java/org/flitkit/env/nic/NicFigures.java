package org.flitkit.env.nic;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.flitkit.env.nic.host.HostSoftware;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.env.nic.host.MgmtResult;
import org.flitkit.env.nic.host.Target;
import org.flitkit.env.nrc.NrcFigures;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.Th2;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.figures.Citation;
import org.flitkit.figures.Figure;
import org.flitkit.figures.OneRunFigures;
import org.flitkit.figures.Measurement;
import org.flitkit.figures.PaperValue;
import org.flitkit.figures.Table;

/**
 * The TH-2 management paper's end-to-end figures (spec 20-th2-management.md, "Measured figures"; the paper's
 * Sections 4.1 and 4.3) measured on the whole path: host software API, PCIe, the server's NIC, a cable and the
 * NRC, N back-to-back transactions (one outstanding, as the paper's loop) with the NIC cabled to NRC port 5.
 * Host software time is a parameter ({@link HostSoftware}, 0 here): the figures say what the model covers.
 */
public final class NicFigures extends OneRunFigures<NicFigures.Run> {
    /** Transactions per kind, as the paper's loop. */
    public static final int N = 1000;
    /** The NRC port the NIC is cabled to: next to the NMA (1 relay station each way). */
    public static final int PORT = 5;
    public static final EepParams BOARD = NrcFigures.BOARD;

    /** Where the cycles of one register read go, mean over the loop (doorbell write to the answer in the MPQ). */
    public record Breakdown(String[] parts, double[] cycles) {
        public double total() {
            double t = 0;
            for (double c : cycles) {
                t += c;
            }
            return t;
        }

        public double part(String name) {
            for (int i = 0; i < parts.length; i++) {
                if (parts[i].equals(name)) {
                    return cycles[i];
                }
            }
            throw new IllegalArgumentException("no part " + name);
        }
    }

    /** Mean latencies (cycles) of the three loops and the read's breakdown. */
    public record Run(double read1, double write1, double read2, Breakdown breakdown) {
    }

    public static final String HOST_MMIO = "host: doorbell write reaches the NIC (PCIe posted write)";
    public static final String NIC_FETCH = "NIC: doorbell to descriptor read";
    public static final String PCIE_READ = "PCIe: descriptor read round trip";
    public static final String NIC_SEND = "NIC: descriptor to the first flit on the link";
    public static final String CABLE_OUT = "cable: to the NRC";
    public static final String NRC_RS_IN = "NRC: port to NMA (relay stations, 20-bit)";
    public static final String NRC_NMA = "NRC: NMA (check, register read, response)";
    public static final String NRC_RS_OUT = "NRC: NMA to port (relay stations)";
    public static final String CABLE_BACK = "cable: back to the NIC (last flit)";
    public static final String NIC_RECV = "NIC: last flit to the MPQ write";
    public static final String PCIE_WRITE = "PCIe: MPQ write until visible to the host";
    static final String[] PARTS = {HOST_MMIO, NIC_FETCH, PCIE_READ, NIC_SEND, CABLE_OUT, NRC_RS_IN, NRC_NMA, NRC_RS_OUT, CABLE_BACK,
        NIC_RECV, PCIE_WRITE};
    /** The parts a per-hop transfer repeats (wire and relay-station transfer); the rest is processing. */
    static final Set<String> HOP = Set.of(CABLE_OUT, NRC_RS_IN, NRC_RS_OUT, CABLE_BACK);

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
            rows.add(new double[] {i, b.cycles()[i], micros(b.cycles()[i]), HOP.contains(b.parts()[i]) ? 1 : 0});
        }
        return new Table("nic-latency-breakdown", List.of("part", "cycles", "us", "per_hop"), rows);
    }

    private void define() {
        Citation fig8 = NrcFigures.PAPER.at("Section 4.1, Fig. 8(a)-(c)");
        Citation fig8d = NrcFigures.PAPER.at("Section 4.1, Fig. 8(d)");
        Citation model = NrcFigures.PAPER.at("Section 4.3 (latency model)");
        String software = "the host software's time (a parameter set to 0: the paper does not break it out); the model's part is the "
                + "hardware path, PCIe at 600 ns per read round trip and 300 ns per posted write, a 100 ns cable and the NRC";
        def(Figure.builder("nic-reg-read", "in-band register read end to end: doorbell to answer in the MPQ (N = 1000 loop, NRC port 5)")
                .from(fig8).paper(PaperValue.of(6.73), "us").notModelled(software).slow().build(),
                r -> Measurement.of("nic-reg-read", micros(r.read1())));
        def(Figure.builder("nic-write-vs-read", "register write / read latency end to end").from(fig8)
                .paper(PaperValue.below(1), "ratio").slow().build(),
                r -> Measurement.of("nic-write-vs-read", r.write1() / r.read1()));
        def(Figure.builder("nic-read2-vs-read1", "2-register read / 1-register read end to end").from(fig8d)
                .paper(PaperValue.between(1, 2), "ratio").slow().build(),
                r -> Measurement.of("nic-read2-vs-read1", r.read2() / r.read1()));
        def(Figure.builder("nic-processing", "register access processing latency: the read without one hop's transfer").from(model)
                .paper(PaperValue.of(5.9597), "us")
                .notModelled(software + "; per the paper's model (processing + (hops + 1) x per-hop round trip, 0 hops to the adjacent NRC) "
                        + "the hop's wire and relay-station transfer are taken out")
                .slow().build(),
                r -> Measurement.of("nic-processing", micros(r.breakdown().total() - hop(r.breakdown()))));
        def(Figure.builder("nic-hop-round-trip", "per-hop round trip: cable both ways and the relay-station transfer in and out").from(model)
                .paper(PaperValue.of(0.8762), "us")
                .explained("this row's hop is the board's cable (100 ns each way) and the NRC's 20-bit relay-station path to its NMA "
                        + "(40 cycles per packet each way), which a transit NRC does not use; the paper's hop is a transit through the switch "
                        + "core, which fabric-hop-round-trip measures on whole chips")
                .slow().build(),
                r -> Measurement.of("nic-hop-round-trip", micros(hop(r.breakdown()))));
    }

    static double hop(Breakdown b) {
        double h = 0;
        for (String p : HOP) {
            h += b.part(p);
        }
        return h;
    }

    public static double micros(double cycles) {
        return cycles / (BOARD.coreHz() / 1e6);
    }

    /** The three loops of {@code n} transactions on a fresh board. */
    public static Run measure(long seed, int n) {
        try (NicEnv env = new NicEnv(RunConfig.of(seed, 0), BOARD, NicEnv.CABLE_LATENCY, PcieParams.th2(), HostSoftware.NONE, PORT)) {
            return measure(env, n);
        }
    }

    public static Run measure(NicEnv env, int n) {
        Probe probe = env.tb.add(new Probe(env));
        Target nrc = Target.adjacentNrc(Th2.CHIP_ID_ANY, env.port());
        double[] sums = new double[PARTS.length];
        double read1 = loop(env, n, () -> MgmtRequest.readRegisters(nrc, List.of(0x008)), probe, sums);
        double write1 = loop(env, n, () -> MgmtRequest.writeRegisters(nrc, List.of(0x008), List.of(0x5AL)), probe, null);
        double read2 = loop(env, n, () -> MgmtRequest.readRegisters(nrc, List.of(0x008, 0x009)), probe, null);
        for (int i = 0; i < sums.length; i++) {
            sums[i] /= n;
        }
        return new Run(read1, write1, read2, new Breakdown(PARTS, sums));
    }

    private static double loop(NicEnv env, int n, java.util.function.Supplier<MgmtRequest> req, Probe probe, double[] sums) {
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
                long[] t = {t0, probe.mmio, probe.read, probe.cpl, probe.nicOut, probe.nrcIn, probe.toNma, probe.fromNma, probe.nrcOut,
                    probe.nicIn, probe.mpqWrite, t0 + ok.latency()};
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

    /** Cycles of the events of one transaction along the path (the last of each kind). */
    static final class Probe extends Component {
        private final NicEnv env;
        private final long doorbell;
        private final long mpqLo;
        private final long mpqHi;
        long mmio;
        long read;
        long cpl;
        long nicOut;
        long nrcIn;
        long toNma;
        long fromNma;
        long nrcOut;
        long nicIn;
        long mpqWrite;
        private boolean inWrite;

        Probe(NicEnv env) {
            super("latency_probe");
            this.env = env;
            doorbell = NicHost.bar(NicEnv.REQUEST_VP, NicHost.SDQ_TAIL);
            mpqLo = org.flitkit.env.nic.host.NicDriver.RING_BASE + NicEnv.REQUEST_VP * org.flitkit.env.nic.host.NicDriver.RING_STRIDE
                    + org.flitkit.env.nic.host.NicDriver.MPQ_OFFSET;
            mpqHi = mpqLo + ((long) NicHost.MPQ_ENTRY_BYTES << NicEnv.RING_LOG2);
        }

        void clear() {
            mmio = read = cpl = nicOut = nrcIn = toNma = fromNma = nrcOut = nicIn = mpqWrite = -1;
        }

        private boolean fire(org.flitkit.hdl.lib.Decoupled<?> d) {
            return sim().peekBool(d.valid) && sim().peekBool(d.ready);
        }

        private long kind(org.flitkit.hdl.lib.Decoupled<org.flitkit.hdl.UInt> d) {
            return sim().peekBig(d.bits).shiftRight(Th2.FLIT_BITS - 2).longValue() & 3;
        }

        @Override
        protected void sample() {
            NicNrcBoard b = env.dut;
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
            if (fire(b.nic.linkOut) && kind(b.nic.linkOut) == Th2.KIND_HEAD) {
                nicOut = now;
            }
            var in = b.nrc.portIn.get(env.port());
            if (fire(in) && kind(in) == Th2.KIND_HEAD) {
                nrcIn = now;
            }
            if (fire(b.nrc.plane.toNma)) {
                toNma = now;
            }
            if (fire(b.nrc.plane.fromNma)) {
                fromNma = now;
            }
            var out = b.nrc.portOut.get(env.port());
            if (fire(out) && kind(out) == Th2.KIND_TAIL) {
                nrcOut = now;
            }
            if (fire(b.nic.linkIn) && kind(b.nic.linkIn) == Th2.KIND_TAIL) {
                nicIn = now;
            }
        }
    }
}
