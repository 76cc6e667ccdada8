package org.flitkit.app;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.flitkit.hdl.Module;
import org.flitkit.tools.benchmark.RelayChain;
import org.flitkit.rtl.link.LinkPairStress;
import org.flitkit.rtl.nic.Nic;
import org.flitkit.rtl.nrc.Nrc;
import org.flitkit.rtl.nrc.switchcore.SwitchCore;
import org.flitkit.rtl.nrc.switchcore.SwitchParams;
import org.flitkit.rtl.xud.XudParams;
import org.flitkit.rtl.xud.XudRecvEngine;
import org.flitkit.rtl.xud.XudSendEngine;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Scenario;
import org.flitkit.figures.FigureRegistry;
import org.flitkit.figures.FigureScenario;
import org.flitkit.figures.FigureSource;
import org.flitkit.env.chpp.ChppDeadlockScenario;
import org.flitkit.env.chpp.ChppFaultsScenario;
import org.flitkit.rtl.chpp.DmaEngine;
import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.env.chpp.ChppFigures;
import org.flitkit.env.chpp.ChppFiguresScenario;
import org.flitkit.env.chpp.ChppXbarFigures;
import org.flitkit.app.demo.FlitLoopbackBenchmark;
import org.flitkit.app.demo.FlitLoopback;
import org.flitkit.app.demo.FlitLoopbackScenario;
import org.flitkit.env.nic.NicFigures;
import org.flitkit.env.nic.mgmt.FabricFigures;
import org.flitkit.env.nic.mgmt.TrafficFigures;
import org.flitkit.env.nic.fabric.Th2Benchmark;
import org.flitkit.env.nic.NicFiguresScenario;
import org.flitkit.env.nrc.NrcBootScenario;
import org.flitkit.env.nrc.NrcEepromScenario;
import org.flitkit.env.nrc.NrcEnv;
import org.flitkit.env.nrc.NrcErrorsScenario;
import org.flitkit.env.nrc.NrcFaultsScenario;
import org.flitkit.env.nrc.NrcFigures;
import org.flitkit.env.nrc.NrcFiguresScenario;
import org.flitkit.env.nrc.chip.NrcChipTrafficScenario;
import org.flitkit.env.nrc.switchcore.SwitchFigures;
import org.flitkit.env.nrc.NrcPortsScenario;
import org.flitkit.env.nrc.NrcRandomScenario;
import org.flitkit.env.nrc.benchmark.NrcChipBenchmark;
import org.flitkit.env.nrc.benchmark.NrcIdleBenchmark;
import org.flitkit.env.nrc.benchmark.NrcTrafficBenchmark;
import org.flitkit.env.nrc.benchmark.SwitchTrafficBenchmark;
import org.flitkit.env.nrc.system.NrcSystemBenchmark;
import org.flitkit.env.xud.XudFigures;
import org.flitkit.env.xud.XudLossyScenario;
import org.flitkit.env.mnc.MncFigures;
import org.flitkit.env.mnc.MncFiguresScenario;
import org.flitkit.env.mnc.MncRandomScenario;
import org.flitkit.rtl.mnc.DispatchUnit;
import org.flitkit.rtl.mnc.MncNode;
import org.flitkit.rtl.mnc.MncParams;
import org.flitkit.env.ring.DfsScenario;
import org.flitkit.env.ring.RingDesigns;
import org.flitkit.env.ring.RingSaturationScenario;

/**
 * Everything {@code ./hdl} can run or emit, by name. Adding a chip's testbench, design or paper figures
 * ({@link FigureSource}, for {@code ./hdl figures}) is one line in {@link #standard()}.
 */
public final class Catalog {

    /**
     * A runnable scenario. {@code options} are its own {@code --name value} options (name without dashes -> meaning and
     * default), given to {@code configured} as name -> text; a scenario without options ignores the map. {@code counts}
     * is the legend of its PASS line: each count's name -> what it counts ({@code ./hdl run NAME --help} shows both).
     */
    public record TestbenchEntry(String name, String description, long defaultCycles, Map<String, String> options,
            Function<Map<String, String>, Scenario> configured, Map<String, String> counts) {
        public TestbenchEntry {
            options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
            counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        }

        /** The scenario with every option at its default. */
        public Scenario scenario() {
            return configured.apply(Map.of());
        }

        /** The scenario with {@code values} for some of its options; an option it does not have is an error. */
        public Scenario scenario(Map<String, String> values) {
            for (String k : values.keySet()) {
                if (!options.containsKey(k)) {
                    throw new IllegalArgumentException(options.isEmpty() ? "testbench " + name + " has no option --" + k
                            : "testbench " + name + " has no option --" + k + "; its options: --" + String.join(", --", options.keySet()));
                }
            }
            return configured.apply(values);
        }
    }

    public record DesignEntry(String name, String description, Supplier<? extends Module> top) {
    }

    /** A closed design (no inputs but clock and reset, a 64-bit {@code checksum} output) for {@code ./hdl bench}. */
    public record BenchmarkEntry(String name, String description, Supplier<? extends Module> top, long defaultCycles) {
    }

    /**
     * A system benchmark for {@code ./hdl bench}: many chips in one fabric, no Verilator peer, printing its
     * own figures. {@code cycles} and {@code requests} are null when not given on the command line.
     */
    public record SystemBenchmarkEntry(String name, String description, SystemBenchmark run) {
    }

    /** Runs a system benchmark; returns the exit code. */
    @FunctionalInterface
    public interface SystemBenchmark {
        int run(int chips, Long cycles, Integer requests, int cabinets, int hops, int threads, java.io.PrintStream out);
    }

    private final Map<String, TestbenchEntry> testbenches = new LinkedHashMap<>();
    private final Map<String, DesignEntry> designs = new LinkedHashMap<>();
    private final Map<String, BenchmarkEntry> benchmarks = new LinkedHashMap<>();
    private final Map<String, SystemBenchmarkEntry> systemBenchmarks = new LinkedHashMap<>();
    private final List<FigureSource> figureSources = new ArrayList<>();

    private static final String NRC_IDLE = "NrcIdleBenchmark: the NRC with every input idle and every output ready; checksum of every output";
    private static final String NRC_TRAFFIC = "NrcTrafficBenchmark: LFSR register reads/writes on all 24 NRC ports, LFSR backpressure, checksum of every response flit";

    /** The testbenches and designs shipped with FlitKit. */
    public static Catalog standard() {
        return new Catalog()
                .testbench("flit-loopback", "random 198-bit flits through serializer, FIFO and deserializer under random backpressure",
                        FlitLoopbackScenario::run)
                .testbench("nrc-ports", "NRC: 1- and 2-register reads and writes from each of the 24 ports; latency by relay-station distance",
                        NrcPortsScenario::run)
                .testbench("nrc-eeprom", "NRC: E2PROM writes and reads of 1 to 6 bytes through a port (fast E2PROM timing)",
                        NrcEepromScenario::run)
                .testbench("nrc-errors", "NRC: every error path (unmapped, read-only, bad count/type/DestType, reserved, wrong DestID, bad CRC)",
                        NrcErrorsScenario::run)
                .testbench("nrc-faults", "NRC: fault reports enabled, masked, disabled; responses before reports under load",
                        NrcFaultsScenario::run)
                .testbench("nrc-boot", "NRC: power-up load from an E2PROM image, good and corrupted", NrcBootScenario::run)
                .testbench("nrc-random", "NRC: random requests on all 24 ports at once, random timing and backpressure, scoreboarded",
                        5_000, NrcRandomScenario::run)
                .testbench("nrc-figures", "NRC: the paper figures as table rows (./hdl figures measures the same), latency by port, E2PROM sweep, sim speed",
                        NrcFiguresScenario::run)
                .testbench("nic-figures", "NIC: end-to-end register read/write latency (host API, PCIe, the whole NIC, cables, a chain of whole NRCs) vs the paper, "
                        + "with where the cycles go", NicFiguresScenario::run)
                .testbench("chpp-figures", "cHPP NIC: every paper figure (latency table, processing latency, bandwidth vs MTU, payload "
                        + "and tags, fairness, crossbar throughput) measured on the RTL, model beside paper", ChppFiguresScenario::run)
                .testbench("chpp-faults", "cHPP NIC: 2000 random PUT/GET/NAP requests both ways from all 8 functions with 10 % of host reads "
                        + "failing (UR, CA, lost): every request ends (a GET at its requester), all tags free, host memory exact", ChppFaultsScenario::scenario)
                .testbench("chpp-deadlock", "cHPP NIC: two NICs back to back over 200-cycle credit links, both GETting from each other at "
                        + "once; GETs sharing the PUT VC deadlock (diagnosed), on their own VC all complete, memory exact (paper figures "
                        + "9/10); 1-byte PUT latency link vs crossbar", ChppDeadlockScenario::scenario)
                .testbench("nrc-chip-traffic", "NRC chip: random table-routed data on all 24 ports through link layers and the switch core, "
                        + "bit errors on every cable, scoreboarded; options --load --ber --cable-latency --sink-ready",
                        1_000_000, NrcChipTrafficScenario.OPTIONS,
                        values -> cfg -> NrcChipTrafficScenario.run(NrcChipTrafficScenario.config(cfg.cycles(), values), cfg))
                .testbench("xud-lossy", "XUD: exactly-once delivery by the window layer over a lossy network; options --loss --ack-loss"
                        + " --dup --reorder --corrupt --messages --windows --endpoints",
                        XudLossyScenario.CYCLE_BUDGET, XudLossyScenario.OPTIONS,
                        values -> {
                            XudLossyScenario.Options o = XudLossyScenario.Options.parse(values);
                            return cfg -> XudLossyScenario.run(cfg, o);
                        })
                .testbench("mnc-random", "MNC: nodes with several rails, random flows and sizes (short on one link, long striped), "
                        + "every message delivered once, in order per flow, byte exact; options --messages --nodes --rails --ports "
                        + "--max-bytes --policy", MncRandomScenario.CYCLE_BUDGET, MncRandomScenario.OPTIONS,
                        values -> {
                            MncRandomScenario.Options o = MncRandomScenario.Options.parse(values);
                            return cfg -> MncRandomScenario.run(cfg, o);
                        })
                .testbench("mnc-figures", "MNC: the multi-rail paper's figures (link sharing, 1/2-rail peak, latency, policies) and "
                        + "beyond (3-4 rails, PCIe-class bus, hardware dispatch), model beside paper", MncFiguresScenario::run)
                .testbench("ring-saturation", "multi-ring RTL (slotted or register-insertion), uniform destinations, saturated or at --load: delivered per cycle per "
                        + "ring and in total against C = N(N-1)/L_max; options --nodes --steps --schedule --kind --load --queue",
                        RingSaturationScenario.DEFAULT_CYCLES, RingSaturationScenario.OPTIONS,
                        values -> {
                            RingSaturationScenario.Options o = RingSaturationScenario.Options.parse(values);
                            return cfg -> RingSaturationScenario.run(cfg, o);
                        })
                .testbench("dfs-permutation", "distributed full switch on the quasi-complete digraph (N = m^2) or a block design B(N,m,a), m x m switches: one packet "
                        + "per subscriber per round, pilots set up the paths; blocked cycles and cycles per round; options --m --a (block design) --flits --rounds --traffic",
                        RunConfig.DEFAULT_CYCLES, DfsScenario.OPTIONS, DfsScenario::of)
                .counts("flit-loopback", FlitLoopbackScenario.COUNTS)
                .counts("nrc-ports", NrcEnv.COUNTS)
                .counts("nrc-eeprom", NrcEnv.COUNTS)
                .counts("nrc-errors", NrcEnv.COUNTS)
                .counts("nrc-faults", NrcFaultsScenario.COUNTS)
                .counts("nrc-boot", NrcEnv.COUNTS)
                .counts("nrc-random", NrcRandomScenario.COUNTS)
                .counts("nrc-figures", NrcFiguresScenario.COUNTS)
                .counts("nic-figures", NicFiguresScenario.COUNTS)
                .counts("chpp-figures", FigureScenario.COUNTS)
                .counts("chpp-faults", ChppFaultsScenario.COUNTS)
                .counts("chpp-deadlock", ChppDeadlockScenario.COUNTS)
                .counts("nrc-chip-traffic", NrcChipTrafficScenario.COUNTS)
                .counts("xud-lossy", XudLossyScenario.COUNTS)
                .counts("mnc-random", MncRandomScenario.COUNTS)
                .counts("mnc-figures", FigureScenario.COUNTS)
                .counts("ring-saturation", RingSaturationScenario.COUNTS)
                .counts("dfs-permutation", DfsScenario.COUNTS)
                .design("flit-loopback", "FlitLoopback: 198-bit flits over a 20-bit link (serializer, FIFO, deserializer)",
                        FlitLoopback::new)
                .design("nrc", "Nrc: the TH-2 routing chip's management plane (24 relay stations, NMA, E2PROM model)", Nrc::new)
                .design("nic", "Nic: the TH-2 NIC's management path (40 VPs, descriptor fetch, MP send unit, MPQ/EQ writes, NIC-NMA, E2PROM)",
                        Nic::new)
                .design("nrc-switch", "SwitchCore: the NRC data switch at CI size (4 ports in 2 x 2 tiles, 4 VCs, DAMQ 4/VC + 4 shared, "
                        + "16-entry tables); SwitchCore() is the 24-port one", () -> new SwitchCore(SwitchParams.CI))
                .design("nrc-chip", "NrcChipBenchmark at 4 ports: the whole NRC (4 link layers with cables to 4 far-end link ports, the "
                        + "switch core at CI size, 2 x 2 relay stations, NMA, E2PROM) under LFSR data packets and management requests; "
                        + "the nrc-chip benchmark is the 24-port one", NrcChipBenchmark::reduced)
                .design("relay-chain", "RelayChain: 96 two-entry skid buffers between an LFSR source and a summing sink",
                        () -> new RelayChain(96, 20))
                .design("xud-send", "XudSendEngine: PSNs, in-flight table, ACK/NAK matching, timeout FIFO (4 QPs x 64 slots)",
                        () -> new XudSendEngine(XudParams.defaults()))
                .design("xud-recv", "XudRecvEngine: ICRC/opcode/length checks, receive queues, data + CQE writes, ACK/NAK (4 QPs)",
                        () -> new XudRecvEngine(XudParams.defaults()))
                .design("link-pair", "LinkPairStress: two TH-2 link layers (CRC, go-back-N replay, credits, training, IDENT, BIST) "
                        + "through a cable, rare bit errors, cuts, BIST runs and chip ID changes from 8-bit input keys", LinkPairStress::new)
                .design("chpp-engine", "DmaEngine: one cHPP DMA engine (doorbell window, send and receive engines, 64 completion rings, "
                        + "PCIe arbiter with the 32-tag allocator), the paper's sizes", () -> new DmaEngine(SendEngineParams.defaults()))
                .design("mnc-node", "MncNode: one MNC node with 2 rails (per NIC SDMA, SEND, RECV, RDMA engines, packet buffers, PCI "
                        + "master), NICStatus and the link dispatch unit (SReq/SAck, striping from 16 KB)", () -> new MncNode(MncParams.of(2)))
                .design("mnc-dispatch", "DispatchUnit: the MNC link dispatch for 4 rails (FREE first else round robin, SReq/SAck, "
                        + "equal chunks)", () -> new DispatchUnit(MncParams.of(4)))
                .design("nrc-idle", NRC_IDLE, NrcIdleBenchmark::new)
                .design("nrc-traffic", NRC_TRAFFIC, NrcTrafficBenchmark::new)
                .design("ring-node", "SlottedRingNode: one slotted-ring stop (destination removal, fill only an empty slot), 16 nodes",
                        RingDesigns::node)
                .design("insertion-node", "RegisterInsertionNode: one register-insertion ring stop (source always sends, passing traffic "
                        + "waits in a 4-packet insertion buffer), 16 nodes", RingDesigns::insertionNode)
                .benchmark("flit-loopback", "LFSR flits through the flit-loopback link, LFSR backpressure, folded checksum",
                        FlitLoopbackBenchmark::new, 2_000_000)
                .benchmark("relay-chain", "96 x 20-bit two-entry skid buffers, LFSR source and LFSR backpressure, summing sink",
                        () -> new RelayChain(96, 20), 2_000_000)
                .benchmark("nrc-idle", NRC_IDLE, NrcIdleBenchmark::new, 2_000_000)
                .benchmark("nrc-traffic", NRC_TRAFFIC, NrcTrafficBenchmark::new, 1_000_000)
                .benchmark("nrc-switch", "SwitchTrafficBenchmark: the 24-port switch core, LFSR table-routed packets (1-8 flits, VC0-3) "
                        + "with credits on every input, LFSR backpressure and credit returns on every output, checksum of every flit out",
                        SwitchTrafficBenchmark::new, 20_000)
                .benchmark("nrc-chip", "NrcChipBenchmark: the whole NRC (24 link layers and cables to 24 far-end link ports, the switch "
                        + "core, the management plane), LFSR source-routed data packets (1-8 flits, VC0-2) from every far end with "
                        + "management register reads and writes mixed in, LFSR backpressure, checksum of every flit the far ends take",
                        NrcChipBenchmark::new, 20_000)
                .systemBenchmark("system-idle", "N idle NRCs in a ring (--chips N, --cycles idle cycles): build time, heap, cost of an idle chip-cycle",
                        (chips, cycles, requests, cabinets, hops, threads, out) -> NrcSystemBenchmark.idle(chips, cycles != null ? cycles : 1_000_000, threads, out))
                .systemBenchmark("nrc-ring", "N NRCs in a ring, one management request at a time to random chips (--chips N, --requests R), against one NRC",
                        (chips, cycles, requests, cabinets, hops, threads, out) -> NrcSystemBenchmark.ring(chips, requests != null ? requests : 400, threads, out))
                .systemBenchmark("th2-idle", "the TH-2 machine of whole NRCs and NICs as a fat tree (--cabinets N compute cabinets, default 143; "
                        + "--cycles idle cycles): build time, heap, state per chip type, power-up, idle cycles",
                        (chips, cycles, requests, cabinets, hops, threads, out) -> Th2Benchmark.idle(cabinets, cycles != null ? cycles : 1_000_000, threads, out))
                .systemBenchmark("th2-request", "one management request from the server's NIC across H NRCs and back on the TH-2 machine of whole "
                        + "chips (--hops H, --cabinets N): cycles and wall time per cycle against one whole NRC alone",
                        (chips, cycles, requests, cabinets, hops, threads, out) -> Th2Benchmark.request(cabinets, hops, threads, out))
                .figures(new NrcFigures())
                .figures(new SwitchFigures())
                .figures(new NicFigures())
                .figures(new FabricFigures())
                .figures(new TrafficFigures())
                .figures(new XudFigures())
                .figures(new ChppXbarFigures())
                .figures(new ChppFigures())
                .figures(new MncFigures());
    }

    public Catalog testbench(String name, String description, Scenario scenario) {
        return testbench(name, description, RunConfig.DEFAULT_CYCLES, scenario);
    }

    public Catalog testbench(String name, String description, long defaultCycles, Scenario scenario) {
        put(testbenches, name, new TestbenchEntry(name, description, defaultCycles, Map.of(), values -> scenario, Map.of()), "testbench");
        return this;
    }

    /** A testbench with its own options ({@code --loss 0.1}); see {@link TestbenchEntry}. */
    public Catalog testbench(String name, String description, long defaultCycles, Map<String, String> options,
            Function<Map<String, String>, Scenario> configured) {
        put(testbenches, name, new TestbenchEntry(name, description, defaultCycles, options, configured, Map.of()), "testbench");
        return this;
    }

    /** The legend of testbench {@code name}'s PASS line: count name -> what it counts, in the line's order. */
    public Catalog counts(String name, Map<String, String> legend) {
        TestbenchEntry e = testbench(name).orElseThrow(() -> new IllegalArgumentException("no testbench named '" + name + "'"));
        testbenches.put(name, new TestbenchEntry(e.name(), e.description(), e.defaultCycles(), e.options(), e.configured(), legend));
        return this;
    }

    public Catalog design(String name, String description, Supplier<? extends Module> top) {
        put(designs, name, new DesignEntry(name, description, top), "design");
        return this;
    }

    public Catalog benchmark(String name, String description, Supplier<? extends Module> top, long defaultCycles) {
        if (systemBenchmarks.containsKey(name)) {
            throw new IllegalArgumentException("two benchmarks named '" + name + "'");
        }
        put(benchmarks, name, new BenchmarkEntry(name, description, top, defaultCycles), "benchmark");
        return this;
    }

    public Catalog systemBenchmark(String name, String description, SystemBenchmark run) {
        if (benchmarks.containsKey(name)) {
            throw new IllegalArgumentException("two benchmarks named '" + name + "'");
        }
        put(systemBenchmarks, name, new SystemBenchmarkEntry(name, description, run), "system benchmark");
        return this;
    }

    /** A chip's paper figures; its name and figure ids must be unique (checked by {@link #figureRegistry()}). */
    public Catalog figures(FigureSource source) {
        figureSources.add(source);
        return this;
    }

    /** Every registered figure source, its names checked. */
    public FigureRegistry figureRegistry() {
        return new FigureRegistry(figureSources);
    }

    public List<BenchmarkEntry> benchmarks() {
        return List.copyOf(benchmarks.values());
    }

    public List<SystemBenchmarkEntry> systemBenchmarks() {
        return List.copyOf(systemBenchmarks.values());
    }

    public Optional<SystemBenchmarkEntry> systemBenchmark(String name) {
        return Optional.ofNullable(systemBenchmarks.get(name));
    }

    public Optional<BenchmarkEntry> benchmark(String name) {
        return Optional.ofNullable(benchmarks.get(name));
    }

    public List<TestbenchEntry> testbenches() {
        return List.copyOf(testbenches.values());
    }

    public List<DesignEntry> designs() {
        return List.copyOf(designs.values());
    }

    public Optional<TestbenchEntry> testbench(String name) {
        return Optional.ofNullable(testbenches.get(name));
    }

    public Optional<DesignEntry> design(String name) {
        return Optional.ofNullable(designs.get(name));
    }

    private static <E> void put(Map<String, E> map, String name, E entry, String what) {
        if (!name.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException(what + " name '" + name + "' must be lower-case letters, digits and '-'");
        }
        if (map.putIfAbsent(name, entry) != null) {
            throw new IllegalArgumentException("two " + what + "s named '" + name + "'");
        }
    }
}
