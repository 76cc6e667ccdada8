package org.flitkit.env.nrc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.flitkit.figures.Citation;
import org.flitkit.figures.Curve;
import org.flitkit.figures.Figure;
import org.flitkit.figures.FigureSource;
import org.flitkit.figures.Measurement;
import org.flitkit.figures.PaperValue;
import org.flitkit.figures.Parameter.Origin;
import org.flitkit.figures.Parameter;
import org.flitkit.figures.Series;
import org.flitkit.figures.Sweep;
import org.flitkit.figures.Table;
import org.flitkit.rtl.nma.EepParams;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.RsGeometry;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.ProgressListener;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.stream.Throttle;

/**
 * The TH-2 management paper's figures that the NRC model reproduces (spec 20-th2-management.md,
 * "Measured figures"; the paper's Sections 3.4.3 and 4.1-4.3), measured on the NRC at the board's timing
 * (100 MHz core, 400 kHz I2C, 3 ms E2PROM write cycle). Two runs: the plane run (relay stations and
 * registers, seconds) and the E2PROM sweep (one NRC per address count, minutes: the slow figures).
 */
public final class NrcFigures implements FigureSource {
    /** The paper, cited by its title (the published title is Chinese; the English one is its translation). */
    public static final Citation PAPER = new Citation("Implementation and Evaluation of In-band Network Management of the "
            + "Interconnection Network of Supercomputing Systems (超级计算系统互连网络带内管理的实现与评测), on Tianhe-2", "Section 4",
            "Tianhe-2 in-band management");
    /** Board timing of every NRC figure; microseconds are at its 100 MHz core clock. */
    public static final EepParams BOARD = EepParams.DEFAULT;
    /** A request carries 1 to 6 E2PROM addresses (spec: "one E2PROM packet reads or writes 1 to 6 bytes"). */
    public static final int EEPROM_ADDRESSES = 6;
    static final String SWEEP = "nrc-eeprom-sweep";

    /** What the plane run measures: the cycles between two back-to-back packets at the NMA, to the NMA by RS crossed, registers by port. */
    public record Plane(long packetCycles, long[] toNmaByRs, NrcPortsScenario.Latencies reg) {
    }

    /** The two runs' results; either is null when no selected figure needs it. */
    record Runs(Plane plane, Table eeprom) {
    }

    /** A figure, the run it needs, and how its value comes from that run. */
    private record Def(Figure figure, boolean eeprom, Function<Runs, Measurement> measure) {
    }

    private final long seed;
    private final List<Def> defs = new ArrayList<>();

    public NrcFigures() {
        this(RunConfig.DEFAULT_SEED);
    }

    /** Figures measured with this seed (the values do not depend on it: addresses and data do not change the timing). */
    public NrcFigures(long seed) {
        this.seed = seed;
        define();
    }

    @Override
    public String name() {
        return "nrc";
    }

    @Override
    public List<Figure> figures() {
        return defs.stream().map(Def::figure).toList();
    }

    @Override
    public Results measure(Set<String> ids, Executor executor) {
        List<Def> wanted = select(defs, Def::figure, ids);
        CompletableFuture<Plane> plane = wanted.stream().anyMatch(d -> !d.eeprom())
                ? CompletableFuture.supplyAsync(() -> measurePlane(seed), executor) : null;
        Table eeprom = wanted.stream().anyMatch(Def::eeprom) ? eepromSweep(seed, executor) : null;
        Runs runs = new Runs(plane == null ? null : Sweep.join(plane), eeprom);
        return new Results(wanted.stream().map(d -> d.measure().apply(runs)).toList(), eeprom == null ? List.of() : List.of(eeprom));
    }

    /** The NRC's figures from already finished runs (the nrc-figures scenario's own): all of them. */
    List<Measurement> all(Plane plane, Table eeprom) {
        Runs runs = new Runs(plane, eeprom);
        return defs.stream().map(d -> d.measure().apply(runs)).toList();
    }

    @Override
    public List<Parameter> parameters() {
        return List.of(
                Parameter.of("NMA core clock (the microseconds of these rows)", BOARD.coreHz() / 1e6, "MHz", Origin.ASSUMPTION,
                        "the paper gives no NRC or NMA clock; a round management clock, and every microsecond here scales with it"),
                Parameter.of("I2C SCL", BOARD.sclHz() / 1e3, "kHz", Origin.DATASHEET,
                        "I2C Fast-mode, which the 24xx512 E2PROM supports; the paper gives no bus rate"),
                Parameter.of("E2PROM write cycle tWC", BOARD.writeCycleNs() / 1e6, "ms", Origin.CALIBRATED,
                        "chosen from the paper's ~3000 us per written byte (nrc-eep-write-step); the 24xx512 data sheet allows up to 5 ms"));
    }

    // ------------------------------------------------------------------ the figures

    private void define() {
        Citation rs = PAPER.at("Section 3.4.3 (relay stations)");
        Citation fig8 = PAPER.at("Section 4.1, Fig. 8(a)-(c)");
        Citation fig8d = PAPER.at("Section 4.1, Fig. 8(d)");
        Citation model = PAPER.at("Section 4.3 (latency model)");
        Citation fig9 = PAPER.at("Section 4.2, Fig. 9(c)-(d)");
        String notModelled = "the server's NIC, PCIe, the glex driver and its software, and the cable (this row is the NRC alone; the "
                + "fabric-* rows measure the path with them)";

        plane(Figure.builder("nrc-rs-packet", "one packet over the 20-bit relay-station path (back to back at the NMA)").from(rs)
                .paper(PaperValue.of(40), "cycles").build(),
                r -> Measurement.of("nrc-rs-packet", r.plane().packetCycles()));
        double[] rsX = Series.countFrom(1, RsGeometry.TH2.cols());
        plane(Figure.builder("nrc-rs-crossing", "request to the NMA: cycles per relay station crossed").from(rs)
                .paper(PaperValue.none(), "cycles/RS")
                .beyondPaper("the paper gives the relay stations' data path (20 bits, 40 cycles per packet) but not their latency; "
                        + "one cycle per RS is this model's relay buffer (two entries, registered valid and ready, no combinational path)")
                .curve(Curve.of("relay stations crossed (port column 5 = 1 ... column 0 = 6)", "first flit in to packet at the NMA (cycles)")
                        .withPaper(Series.paperLine("paper: 40 cycles per packet on the 20-bit RS path", rsX, Series.constant(RsGeometry.TH2.cols(), 40))))
                .build(), r -> {
                    double[] y = toDouble(r.plane().toNmaByRs());
                    return new Measurement("nrc-rs-crossing", Series.slope(rsX, y), List.of(Series.model("model: request to the NMA", rsX, y)));
                });
        double[] ports = Series.countFrom(0, RsGeometry.TH2.ports());
        plane(Figure.builder("nrc-reg-read", "in-band register read, one hop (NRC mean over its 24 ports)").from(fig8)
                .paper(PaperValue.of(6.73), "us")
                .notModelled("the paper's 6.73 us (N = 1000 loop) is end to end from the management server and includes " + notModelled)
                .curve(Curve.of("NRC port (0..23; column 0 is 6 relay stations from the NMA, column 5 is 1)",
                        "request in to answer out (us at 100 MHz)"))
                .build(), r -> {
                    NrcPortsScenario.Latencies l = r.plane().reg();
                    return new Measurement("nrc-reg-read", micros(mean(l.read1())), List.of(
                            Series.model("model: read 1 register", ports, micros(l.read1())),
                            Series.model("model: write 1 register", ports, micros(l.write1())),
                            Series.model("model: read 2 registers", ports, micros(l.read2()))));
                });
        plane(Figure.builder("nrc-reg-processing", "register read processing latency: the fit of the 24 ports' reads against the relay "
                + "stations crossed, at none").from(model)
                .paper(PaperValue.of(5.9597), "us")
                .notModelled("the paper's processing latency is everything but the per-hop transfer, fitted end to end, and includes "
                        + notModelled)
                .build(), r -> {
                    double[] crossed = new double[RsGeometry.TH2.ports()];
                    for (int p = 0; p < crossed.length; p++) {
                        crossed[p] = RsGeometry.TH2.hopsToNma(p);
                    }
                    return Measurement.of("nrc-reg-processing", micros(Series.intercept(crossed, toDouble(r.plane().reg().read1()))));
                });
        plane(Figure.builder("nrc-write-vs-read", "register write / read latency (NRC mean over its 24 ports)").from(fig8)
                .paper(PaperValue.below(1), "ratio")
                .build(), r -> Measurement.of("nrc-write-vs-read", mean(r.plane().reg().write1()) / mean(r.plane().reg().read1())));
        plane(Figure.builder("nrc-read2-vs-read1", "2-register read / 1-register read (NRC mean over its 24 ports)").from(fig8d)
                .paper(PaperValue.between(1, 2), "ratio").build(),
                r -> Measurement.of("nrc-read2-vs-read1", mean(r.plane().reg().read2()) / mean(r.plane().reg().read1())));
        plane(Figure.builder("nrc-write2-vs-write1", "2-register write / 1-register write (NRC mean over its 24 ports)").from(fig8d)
                .paper(PaperValue.of(1), "ratio").build(),
                r -> Measurement.of("nrc-write2-vs-write1", mean(r.plane().reg().write2()) / mean(r.plane().reg().write1())));

        double[] addrs = Series.countFrom(1, EEPROM_ADDRESSES);
        eeprom(Figure.builder("nrc-eep-read-step", "E2PROM read: latency added by each extra address in the request").from(fig9)
                .paper(PaperValue.of(150), "us/address")
                .notModelled("idle time between the byte accesses of a request (the driver's timing): the model's I2C runs at 400 kHz "
                        + "(an assumption: the paper gives no bus rate) with no gap between accesses (a random read of one byte is about 49 "
                        + "SCL periods); the paper's 150 us fits a bus near 325 kHz or such gaps")
                .curve(Curve.of("E2PROM addresses in one request", "request in to answer out (us at 100 MHz)")
                        .withSlope("paper: +150 us per extra address (drawn from the model's 1-address point)", 150))
                .slow().build(), r -> step("nrc-eep-read-step", r.eeprom(), "read_cycles", "model: read"));
        eeprom(Figure.builder("nrc-eep-write-step", "E2PROM write: latency added by each extra address in the request").from(fig9)
                .paper(PaperValue.of(3000), "us/address")
                .calibrated("the E2PROM write cycle tWC, 3 ms, was chosen from this row's ~3000 us per written byte (the 24xx512 data sheet "
                        + "allows up to 5 ms); the rest of the step, the I2C bytes at 400 kHz, is the RTL's")
                .curve(Curve.of("E2PROM addresses in one request", "request in to answer out (us at 100 MHz)")
                        .withSlope("paper: +3000 us per extra address (drawn from the model's 1-address point)", 3000))
                .slow().build(), r -> step("nrc-eep-write-step", r.eeprom(), "write_cycles", "model: write"));
        eeprom(Figure.builder("nrc-eep-processing", "E2PROM access processing latency (1-address read)").from(model)
                .paper(PaperValue.of(157.826), "us")
                .notModelled("the paper's processing latency is fitted end to end and includes " + notModelled + "; the model's "
                        + "1-address read is the I2C random read at 400 kHz plus the in-chip path")
                .slow().build(), r -> Measurement.of("nrc-eep-processing", micros(r.eeprom().column("read_cycles")[0])));
    }

    private void plane(Figure f, Function<Runs, Measurement> m) {
        defs.add(new Def(f, false, m));
    }

    private void eeprom(Figure f, Function<Runs, Measurement> m) {
        defs.add(new Def(f, true, m));
    }

    /** The latency added per address (slope in cycles, then microseconds), and the latency by address count. */
    private static Measurement step(String id, Table t, String column, String name) {
        double[] x = t.column("addresses");
        double[] cycles = t.column(column);
        return new Measurement(id, micros(Series.slope(x, cycles)), List.of(Series.model(name, x, micros(cycles))));
    }

    // ------------------------------------------------------------------ the runs

    /** Cycle at which each whole packet is handed to the NMA (nmp_unpacker output fires). */
    static final class NmaEntry extends Component {
        private final Nrc dut;
        final List<Long> cycles = new ArrayList<>();

        NmaEntry(Nrc dut) {
            super("nma_entry");
            this.dut = dut;
        }

        @Override
        protected void sample() {
            if (sim().peekBool(dut.plane.toNma.valid) && sim().peekBool(dut.plane.toNma.ready)) {
                cycles.add(cycle());
            }
        }

        long last() {
            return cycles.get(cycles.size() - 1);
        }
    }

    /** The plane run on a fresh NRC at board timing. */
    static Plane measurePlane(long seed) {
        try (NrcEnv env = new NrcEnv(RunConfig.of(seed, 0), BOARD, null, Throttle.NONE)) {
            return measurePlane(env);
        }
    }

    /** The plane run on {@code env}: two back-to-back requests into a nearest port, one request per RS distance, then every port's registers. */
    public static Plane measurePlane(NrcEnv env) {
        NmaEntry entry = env.tb.add(new NmaEntry(env.dut));
        int near = RsGeometry.TH2.lastCol();
        for (int k = 0; k < 2; k++) {
            env.submit(near, Requests.read(near, 0xFFFF, env.tid(), List.of(0x008)));
        }
        env.drain(5_000);
        long packet = entry.last() - entry.cycles.get(entry.cycles.size() - 2);
        long[] toNma = new long[RsGeometry.TH2.cols()];
        for (int rs = 1; rs <= RsGeometry.TH2.cols(); rs++) {
            int port = RsGeometry.TH2.port(0, RsGeometry.TH2.cols() - rs);
            long t0 = env.tb.cycle();
            env.submit(port, Requests.read(port, 0xFFFF, env.tid(), List.of(0x008)));
            env.drain(5_000);
            toNma[rs - 1] = entry.last() - t0;
        }
        return new Plane(packet, toNma, NrcPortsScenario.measure(env, env.tb.rng("values")));
    }

    /** E2PROM writes then reads of 1..6 addresses at board timing, one NRC per address count, the counts run on {@code executor}. */
    static Table eepromSweep(long seed, Executor executor) {
        return eepromSweep(seed, executor, null, EEPROM_ADDRESSES);
    }

    /** The sweep of 1..{@code addresses} addresses, each point's testbench telling {@code progress} (null: nobody) of its runs and waits. */
    static Table eepromSweep(long seed, Executor executor, ProgressListener progress, int addresses) {
        RunConfig cfg = RunConfig.of(seed, 0).withProgress(progress);
        Sweep<Integer> sweep = Sweep.of(SWEEP, List.of("addresses", "write_cycles", "read_cycles"), n -> {
            try (NrcEnv env = new NrcEnv(Testbench.create(() -> new Nrc(BOARD, null), cfg), null, Throttle.NONE)) {
                long[] wr = NrcEepromScenario.writeThenRead(env, env.tb.rng("eeprom" + n), RsGeometry.TH2.lastCol(), n, true);
                env.tb.finish();
                return new double[] {n, wr[0], wr[1]};
            }
        });
        List<Integer> points = new ArrayList<>();
        for (int n = addresses; n >= 1; n--) {
            points.add(n); // longest first, so a pool is not left waiting on the last big point
        }
        Table t = sweep.run(points, executor);
        List<double[]> rows = new ArrayList<>(t.rows());
        rows.sort((a, b) -> Double.compare(a[0], b[0]));
        return new Table(t.name(), t.columns(), rows);
    }

    // ------------------------------------------------------------------ arithmetic

    static double micros(double cycles) {
        return cycles * 1e6 / BOARD.coreHz();
    }

    static double[] micros(double[] cycles) {
        return Arrays.stream(cycles).map(NrcFigures::micros).toArray();
    }

    static double[] micros(long[] cycles) {
        return micros(toDouble(cycles));
    }

    static double[] toDouble(long[] v) {
        return Arrays.stream(v).asDoubleStream().toArray();
    }

    static double mean(long[] v) {
        return Arrays.stream(v).average().orElseThrow();
    }
}
