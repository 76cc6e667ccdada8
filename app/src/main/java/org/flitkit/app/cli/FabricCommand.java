package org.flitkit.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.flitkit.console.Console;
import org.flitkit.console.MachineSession;
import org.flitkit.env.nic.fabric.Th2Machine;
import org.flitkit.env.nic.mgmt.BistRun;
import org.flitkit.env.nic.mgmt.Discovery;
import org.flitkit.env.nic.mgmt.FabricFigures;
import org.flitkit.env.nic.mgmt.FaultLog;
import org.flitkit.env.nic.mgmt.ManagementServer;
import org.flitkit.env.nic.mgmt.Neighbour;
import org.flitkit.env.nic.mgmt.PathTrace;
import org.flitkit.env.nic.mgmt.RoutingTables;
import org.flitkit.env.nic.mgmt.StatusScan;
import org.flitkit.env.nic.mgmt.TrafficDiscovery;
import org.flitkit.env.nic.mgmt.TrafficFigures;
import org.flitkit.env.nrc.system.Th2Drawings;
import org.flitkit.env.nrc.system.Th2FatTree;
import org.flitkit.formats.th2.Th2;
import org.flitkit.rtl.nma.BootLoader;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nma.EepParams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code hdl fabric}: the TH-2 machine of whole chips (docs/th2-fabric.md) and its management server
 * (docs/th2-management.md): build it and draw it, discover it from NEIGHBOUR reads, scan its status, collect its
 * faults, run link BIST; or serve the web console on it (docs/th2-console.md). Each prints lines and one summary
 * line, or with {@code --json} one JSON document.
 */
@Command(name = "fabric", description = "The TH-2 machine of whole chips and its management server (docs/th2-management.md).",
        subcommands = {FabricCommand.Build.class, FabricCommand.Discover.class, FabricCommand.Trace.class, FabricCommand.Scan.class,
                FabricCommand.Faults.class, FabricCommand.Bist.class, FabricCommand.Serve.class})
final class FabricCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: build, discover, trace, scan, faults, bist or serve");
    }

    /** What every subcommand takes: the topology and how it is simulated. */
    static final class Machine {
        @Option(names = "--topology", paramLabel = "NAME", description = "frame, cabinet, eighth or th2 (default: ${DEFAULT-VALUE}).")
        String topology = "frame";

        @Option(names = "--json", description = "One JSON document on stdout instead of text lines.")
        boolean json;

        @Option(names = {"-q", "--quiet"}, description = "No progress bar (none is drawn when stdout is not a terminal either).")
        boolean quiet;

        Th2FatTree tree(CommandSpec spec) {
            try {
                return Th2FatTree.named(topology);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--topology: " + e.getMessage());
            }
        }

        ProgressBars progress(String label) {
            return quiet || json || System.console() == null ? null : new ProgressBars(label);
        }
    }

    /** The options of the commands that run the management server on the machine. */
    static final class Server {
        @Option(names = "--threads", paramLabel = "T", description = "Threads evaluating chips (default: the cores, ${DEFAULT-VALUE}).")
        int threads = Runtime.getRuntime().availableProcessors();

        @Option(names = "--server-node", paramLabel = "N", description = "The node whose NIC is the management server's (default: ${DEFAULT-VALUE}).")
        int serverNode = 0;

        @Option(names = "--window", paramLabel = "W", description = "Requests in flight at once, 1..32 (default: ${DEFAULT-VALUE}).")
        int window = ManagementServer.WINDOW;

        @Option(names = "--timeout", paramLabel = "CYCLES", description = "Cycles after which a request is given up (default: ${DEFAULT-VALUE}).")
        long timeout = ManagementServer.TIMEOUT;

        @Option(names = "--cut", paramLabel = "NRC:PORT", description = "The cable at PORT of NRC (its index in the tree) is cut from power-up. Repeatable.")
        List<String> cuts = new ArrayList<>();

        @Option(names = "--dead", paramLabel = "NRC", description = "NRC (its index in the tree) is dead from power-up: every cable to it is cut. Repeatable.")
        List<Integer> dead = new ArrayList<>();
    }

    /** A built, powered-up machine with its server; prints what it did. */
    static final class Run implements AutoCloseable {
        final ManagementServer ms;
        final Th2FatTree tree;
        final Map<String, Object> json = new LinkedHashMap<>();
        final PrintWriter out;
        final ProgressBars progress;
        final long start = System.nanoTime();

        Run(CommandSpec spec, Machine m, Server s, String label) {
            tree = m.tree(spec);
            if (s.serverNode < 0 || s.serverNode >= tree.nodes().size()) {
                throw new ParameterException(spec.commandLine(), "--server-node: the " + m.topology + " has nodes 0.." + (tree.nodes().size() - 1) + ", got " + s.serverNode);
            }
            if (s.window < 1 || s.window > 32 || s.timeout < 1 || s.threads < 1) {
                throw new ParameterException(spec.commandLine(), "--window must be 1..32, --timeout and --threads at least 1");
            }
            List<Integer> cutCables = new ArrayList<>();
            for (String c : s.cuts) {
                cutCables.add(cable(spec, tree, "--cut", c));
            }
            for (int d : s.dead) {
                if (d < 0 || d >= tree.nrcs().size()) {
                    throw new ParameterException(spec.commandLine(), "--dead: the " + m.topology + " has NRCs 0.." + (tree.nrcs().size() - 1) + ", got " + d);
                }
            }
            progress = m.progress("fabric " + label);
            PrintWriter o = spec.commandLine().getOut();
            out = m.json ? new PrintWriter(PrintWriter.nullWriter()) : progress == null ? o : progress.guard(o);
            try {
                phase("compiling and booting one NRC and one NIC");
                long t0 = System.nanoTime();
                Th2Machine.Protos protos = new Th2Machine.Protos(EepParams.DEFAULT);
                phase("forking and wiring " + tree.nrcs().size() + " NRCs and " + tree.nodes().size() + " NICs");
                ms = new ManagementServer(tree, protos, s.threads, s.serverNode, s.window, s.timeout);
                double build = (System.nanoTime() - t0) / 1e9;
                for (int c : cutCables) {
                    ms.machine.cut(c, true);
                }
                for (int d : s.dead) {
                    ms.machine.kill(d);
                }
                phase("power-up");
                long t1 = System.nanoTime();
                long up = ms.powerUp(200_000);
                out.printf(Locale.ROOT, "machine: %s, %,d NRCs, %,d NICs, %,d cables between NRCs; built in %.1f s; power-up %d cycles (%.1f s)%s%n",
                        m.topology, tree.nrcs().size(), tree.nodes().size(), tree.cables().size(), build, up, (System.nanoTime() - t1) / 1e9,
                        cutCables.isEmpty() && s.dead.isEmpty() ? "" : "; cut " + s.cuts + ", dead " + s.dead);
                json.put("build_seconds", build);
                json.put("power_up_cycles", up);
            } catch (RuntimeException e) {
                // the status line goes before the error's line
                if (progress != null) {
                    progress.close();
                }
                throw e;
            }
            json.put("topology", m.topology);
            json.put("nrcs_planned", tree.nrcs().size());
            json.put("nics_planned", tree.nodes().size());
        }

        void phase(String name) {
            if (progress != null) {
                progress.phase(name);
            }
        }

        Discovery.Result discover() {
            phase("discovery");
            long t = System.nanoTime();
            long c0 = ms.machine.fabric.now();
            Discovery.Result r = ms.discover((found, read) -> {
                if (progress != null) {
                    progress.progress("discovery: " + found + " NRCs found, " + read + " read", ms.machine.fabric.now(), c0, -1);
                }
            });
            double wall = (System.nanoTime() - t) / 1e9;
            Map<Neighbour.Kind, Integer> ports = r.portCounts();
            List<String> missing = new ArrayList<>();
            java.util.Set<Integer> ids = new java.util.HashSet<>();
            r.nrcs().forEach(n -> ids.add(n.chipId()));
            for (Th2FatTree.Nrc n : tree.nrcs()) {
                if (!ids.contains(Th2Machine.NRC_ID_BASE + n.index())) {
                    missing.add(String.format("NRC %d (0x%04x)", n.index(), Th2Machine.NRC_ID_BASE + n.index()));
                }
            }
            int[] histogram = new int[Th2.MAX_HOPS + 1];
            r.nrcs().forEach(n -> histogram[n.distance()]++);
            out.printf(Locale.ROOT, "discovery: %,d NRCs and %,d NICs found (planned %,d and %,d); NRC ports: %,d to NRCs, %,d to NICs, %,d none, %,d down%n",
                    r.nrcs().size(), r.nics().size(), tree.nrcs().size(), tree.nodes().size(), ports.get(Neighbour.Kind.NRC), ports.get(Neighbour.Kind.NIC),
                    ports.get(Neighbour.Kind.NONE), ports.get(Neighbour.Kind.DOWN));
            out.printf(Locale.ROOT, "distance from the server (NRCs before it, 0 = the server's own): %s%n", histogramText(histogram));
            out.printf(Locale.ROOT, "the paper's scan estimate over these distances (M = %d, DP = %.2f us, DT = %.2f us): %.2f s counting hops from the "
                    + "server's NRC, %.2f s from the server's link (the paper: 9.38 s for its machine)%n", FabricFigures.SCAN_REQUESTS_PER_NRC,
                    FabricFigures.PAPER_DP, FabricFigures.PAPER_DT, FabricFigures.paperFormula(histogram, 0), FabricFigures.paperFormula(histogram, 1));
            for (Discovery.Unreached u : r.unreached()) {
                out.printf(Locale.ROOT, "unreached: %s%n", u.chipId() == 0xFFFF ? u.what() : String.format("NRC 0x%04x: %s", u.chipId(), u.what()));
            }
            if (!missing.isEmpty()) {
                out.printf(Locale.ROOT, "not found (%d): %s%n", missing.size(), String.join(", ", missing.subList(0, Math.min(20, missing.size())))
                        + (missing.size() > 20 ? ", ..." : ""));
            }
            out.printf(Locale.ROOT, "discovery: %,d requests (%,d failed), %,d cycles = %.1f us simulated, %.1f s wall%n", r.requests(), r.failures(), r.cycles(),
                    ManagementServer.micros(r.cycles()), wall);
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("nrcs", r.nrcs().size());
            d.put("nics", r.nics().size());
            d.put("ports", ports);
            d.put("distance_histogram", histogram);
            d.put("paper_scan_estimate_s", List.of(FabricFigures.paperFormula(histogram, 0), FabricFigures.paperFormula(histogram, 1)));
            d.put("requests", r.requests());
            d.put("failed", r.failures());
            d.put("cycles", r.cycles());
            d.put("simulated_us", ManagementServer.micros(r.cycles()));
            d.put("wall_seconds", wall);
            d.put("unreached", r.unreached());
            d.put("not_found", missing);
            d.put("chips", r.nrcs());
            d.put("nic_list", r.nics());
            json.put("discovery", d);
            return r;
        }

        String summary(String what) {
            return String.format(Locale.ROOT, "%s; %.1f s in all", what, (System.nanoTime() - start) / 1e9);
        }

        void finish(CommandSpec spec, Machine m, String summary) {
            if (progress != null) {
                progress.close();
            }
            PrintWriter o = spec.commandLine().getOut();
            if (m.json) {
                json.put("summary", summary);
                o.println(FabricCommand.json(json));
            } else {
                o.println(summary);
            }
            o.flush();
        }

        @Override
        public void close() {
            if (progress != null) {
                progress.close();
            }
            ms.close();
        }
    }

    static String histogramText(int[] h) {
        StringBuilder s = new StringBuilder();
        for (int d = 0; d < h.length; d++) {
            if (h[d] > 0) {
                s.append(s.length() == 0 ? "" : ", ").append(d).append(": ").append(h[d]);
            }
        }
        return s.toString();
    }

    static int cable(CommandSpec spec, Th2FatTree tree, String option, String text) {
        int[] at = nrcPort(spec, option, text);
        int c = at[0] >= 0 && at[0] < tree.nrcs().size() ? tree.cableAt(at[0], at[1]) : -1;
        if (c < 0) {
            throw new ParameterException(spec.commandLine(), option + " " + text + ": no cable between NRCs at port " + at[1] + " of NRC " + at[0]
                    + " (NRCs 0.." + (tree.nrcs().size() - 1) + ")");
        }
        return c;
    }

    /** {NRC, PORT} of an option's NRC:PORT, or a usage error. */
    static int[] nrcPort(CommandSpec spec, String option, String text) {
        String[] p = text.split(":");
        try {
            if (p.length == 2) {
                return new int[] {Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim())};
            }
        } catch (NumberFormatException e) {
            // falls through to the usage line
        }
        throw new ParameterException(spec.commandLine(), option + " takes NRC:PORT (e.g. 0:8), got '" + text + "'");
    }

    /** A command that runs the management server on the machine: the topology's and the server's options. */
    abstract static class ServerCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        Machine machine;

        @Mixin
        Server server;
    }

    /** {@code value} as indented JSON, one document. */
    static String json(Object value) {
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
        } catch (IOException e) {
            throw CliError.failure("cannot write JSON: " + e.getMessage());
        }
    }

    @Command(name = "build", mixinStandardHelpOptions = true, description = "The topology's counts and its drawings (DOT, and SVG and PNG with graphviz).")
    static final class Build implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        Machine machine;

        @Option(names = "--draw", paramLabel = "DIR", description = "Write the drawings per level into DIR.")
        Path draw;

        @Override
        public Integer call() {
            Th2FatTree t = machine.tree(spec);
            PrintWriter out = spec.commandLine().getOut();
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("topology", machine.topology);
            j.put("compute_cabinets", t.computeCabinets());
            j.put("bottom_switches", t.bottomSwitches());
            j.put("leaf_switches", t.leafSwitches());
            j.put("root_switches", t.rootSwitches());
            j.put("leaf_cabinets", t.leafCabinets());
            j.put("root_cabinets", t.rootCabinets());
            j.put("nrcs", t.nrcs().size());
            j.put("nics", t.nodes().size());
            j.put("cables_between_nrcs", t.cables().size());
            j.put("node_cables", t.nodes().size());
            List<String> files = new ArrayList<>();
            if (draw != null) {
                try {
                    new Th2Drawings(t).render(draw).forEach(f -> files.add(f.toString()));
                } catch (IOException e) {
                    throw CliError.failure("cannot write the drawings into " + draw + ": " + IoErrors.reason(e));
                }
                j.put("drawings", files);
            }
            if (machine.json) {
                out.println(json(j));
            } else {
                out.printf(Locale.ROOT, "%s: %d compute cabinets (%d bottom switches), %d leaf switches in %d leaf cabinets, %d root switches in %d root cabinets%n",
                        machine.topology, t.computeCabinets(), t.bottomSwitches(), t.leafSwitches(), t.leafCabinets(), t.rootSwitches(), t.rootCabinets());
                if (!files.isEmpty()) {
                    out.println("drawings: " + String.join(", ", files) + (Th2Drawings.hasDot() ? "" : " (graphviz's dot not found: DOT only)"));
                }
                out.printf(Locale.ROOT, "%s: %,d NRCs, %,d NICs, %,d cables between NRCs and %,d node cables (%,d in all)%n", machine.topology, t.nrcs().size(),
                        t.nodes().size(), t.cables().size(), t.nodes().size(), t.cables().size() + t.nodes().size());
            }
            out.flush();
            return 0;
        }
    }

    @Command(name = "discover", mixinStandardHelpOptions = true, description = "Breadth-first discovery from the server's NIC, from NEIGHBOUR reads only.")
    static final class Discover extends ServerCommand {
        @Option(names = "--alltoall", paramLabel = "INTERVAL", description = "Then load routing tables in band and discover again while every "
                + "node sends AlltoAll data, an 8-flit packet every INTERVAL cycles at most (8: its link's rate); prints both times.")
        Integer alltoall;

        @Option(names = "--warmup", paramLabel = "CYCLES", description = "With --alltoall: cycles of traffic before the second discovery "
                + "(default: ${DEFAULT-VALUE}).")
        long warmup = TrafficFigures.WARMUP;

        @Override
        public Integer call() {
            if (alltoall != null && (alltoall < 1 || alltoall > 0xFFFF) || warmup < 0) {
                throw new ParameterException(spec.commandLine(), "--alltoall is 1..65535 cycles and --warmup not negative");
            }
            try (Run run = new Run(spec, machine, server, "discover --topology " + machine.topology)) {
                if (alltoall != null) {
                    TrafficDiscovery.Result t;
                    try {
                        t = TrafficDiscovery.run(run.ms, alltoall, warmup, 1_000_000, run::discover);
                    } catch (IllegalStateException e) {
                        throw CliError.failure(e.getMessage());
                    }
                    run.json.put("alltoall", Map.of("interval", alltoall, "warmup", warmup, "idleCycles", t.idle().cycles(),
                            "loadedCycles", t.loaded().cycles(), "dataSentDuring", t.sentDuring(), "dataSent", t.sent(), "dataReceived", t.received()));
                    run.finish(spec, machine, run.summary(String.format(Locale.ROOT, "%s: discovery idle %.1f us, under AlltoAll (every %d cycles) "
                            + "%.1f us, %+.2f %%; %,d data packets sent while it ran, %,d of %,d received in all", machine.topology,
                            ManagementServer.micros(t.idle().cycles()), alltoall, ManagementServer.micros(t.loaded().cycles()), t.increasePercent(),
                            t.sentDuring(), t.received(), t.sent())));
                    return t.received() == t.sent() && t.loaded().nrcs().size() == t.idle().nrcs().size() ? 0 : 1;
                }
                Discovery.Result r = run.discover();
                boolean exact = r.unreached().isEmpty() && r.nrcs().size() == run.tree.nrcs().size() && r.nics().size() == run.tree.nodes().size();
                String found = exact ? String.format(Locale.ROOT, "%,d NRCs and %,d NICs discovered, each exactly once", r.nrcs().size(), r.nics().size())
                        : String.format(Locale.ROOT, "%,d of %,d NRCs and %,d of %,d NICs discovered, %,d requests unanswered", r.nrcs().size(),
                                run.tree.nrcs().size(), r.nics().size(), run.tree.nodes().size(), r.failures());
                run.finish(spec, machine, run.summary(String.format(Locale.ROOT, "%s: %s, in %.1f us simulated", machine.topology, found,
                        ManagementServer.micros(r.cycles()))));
            }
            return 0;
        }
    }

    @Command(name = "trace", mixinStandardHelpOptions = true, description = "Routing tables from discovery loaded in band; the path from one "
            + "node to another traced through the NRCs' tables, or random pairs checked against the software replay.")
    static final class Trace extends ServerCommand {
        @Option(names = "--from", paramLabel = "NODE", description = "Source node (its NIC's CHIP_ID is the node number).")
        Integer from;

        @Option(names = "--to", paramLabel = "NODE", description = "Destination node.")
        Integer to;

        @Option(names = "--random-pairs", paramLabel = "N", description = "Instead of --from/--to: N random pairs, each traced and compared "
                + "with the software replay of the generated tables.")
        Integer pairs;

        @Option(names = "--seed", paramLabel = "S", description = "Seed of the random pairs (default: ${DEFAULT-VALUE}).")
        long seed = 1;

        @Option(names = "--eeprom", paramLabel = "DIR", description = "Also write each NRC's E2PROM image for power-up (its CHIP_ID and "
                + "tables) to DIR/nrc-0xID.bin.")
        Path eeprom;

        @Override
        public Integer call() {
            Th2FatTree t = machine.tree(spec);
            int nodes = t.nodes().size();
            if (pairs == null && (from == null || to == null) || pairs != null && (from != null || to != null)) {
                throw new ParameterException(spec.commandLine(), "give --from NODE and --to NODE, or --random-pairs N");
            }
            if (pairs != null && pairs < 1 || from != null && (from < 0 || from >= nodes) || to != null && (to < 0 || to >= nodes)) {
                throw new ParameterException(spec.commandLine(), "the " + machine.topology + " has nodes 0.." + (nodes - 1) + "; --random-pairs at least 1");
            }
            try (Run run = new Run(spec, machine, server, "trace --topology " + machine.topology)) {
                Discovery.Result found = run.discover();
                run.phase("routing tables");
                RoutingTables tables;
                try {
                    tables = RoutingTables.shortestPaths(found);
                } catch (IllegalArgumentException | IllegalStateException e) {
                    throw CliError.failure(e.getMessage());
                }
                run.out.println("routing tables: " + tables.summary());
                if (eeprom != null) {
                    run.phase("E2PROM images");
                    int maxRecords = 0;
                    try {
                        Files.createDirectories(eeprom);
                        for (int id : tables.nrcIds()) {
                            Files.write(eeprom.resolve(String.format("nrc-0x%04x.bin", id)), tables.eepromImage(id));
                            maxRecords = Math.max(maxRecords, tables.table(id).records().size() + 1);
                        }
                    } catch (IOException | IllegalArgumentException e) {
                        throw CliError.failure("E2PROM images in " + eeprom + ": " + e.getMessage());
                    }
                    run.out.printf(Locale.ROOT, "E2PROM images: %,d written to %s, at most %,d records of the %,d an E2PROM holds%n",
                            tables.nrcIds().size(), eeprom, maxRecords, BootLoader.MAX_RECORDS);
                }
                run.phase("loading the tables");
                long c0 = run.ms.machine.fabric.now();
                long w0 = System.nanoTime();
                long failed = tables.load(run.ms.pipe);
                run.out.printf(Locale.ROOT, "loaded in band: %,d requests in %,d cycles = %,.0f us simulated, %.1f s wall (%d failed)%n",
                        tables.loadRequests(), run.ms.machine.fabric.now() - c0, ManagementServer.micros(run.ms.machine.fabric.now() - c0),
                        (System.nanoTime() - w0) / 1e9, failed);
                run.json.put("tableEntries", tables.entries());
                run.json.put("loadRequests", tables.loadRequests());
                run.json.put("loadCycles", run.ms.machine.fabric.now() - c0);
                run.phase("trace");
                if (pairs == null) {
                    PathTrace.Result r = PathTrace.trace(run.ms.pipe, run.ms.machine.fabric, tables, from, to);
                    r.steps().forEach(st -> run.out.println("  " + st));
                    if (r.failure() != null) {
                        run.out.println("  stopped: " + r.failure());
                    }
                    run.json.put("trace", r);
                    run.finish(spec, machine, run.summary(String.format(Locale.ROOT, "%s: node %d to node %d: %d NRCs, %s (traced in %,d cycles)",
                            machine.topology, from, to, r.steps().size(), r.reachable() ? "reachable" : "not reachable", r.cycles())));
                    return 0;
                }
                java.util.Random rng = new java.util.Random(seed);
                int agree = 0;
                int reachable = 0;
                List<String> disagree = new ArrayList<>();
                for (int k = 0; k < pairs; k++) {
                    int a = rng.nextInt(nodes);
                    int b = rng.nextInt(nodes);
                    PathTrace.Result r = PathTrace.trace(run.ms.pipe, run.ms.machine.fabric, tables, a, b);
                    if (r.hops().equals(tables.replay(a, b))) {
                        agree++;
                    } else {
                        disagree.add(a + "->" + b);
                    }
                    reachable += r.reachable() ? 1 : 0;
                    if (run.progress != null) {
                        run.progress.progress("trace: " + (k + 1) + " of " + pairs + " pairs", run.ms.machine.fabric.now(), c0, -1);
                    }
                }
                disagree.stream().limit(20).forEach(d -> run.out.println("  disagrees with the replay: " + d));
                run.json.put("pairs", pairs);
                run.json.put("agree", agree);
                run.json.put("reachable", reachable);
                run.json.put("disagree", disagree);
                run.finish(spec, machine, run.summary(String.format(Locale.ROOT, "%s: %d random pairs traced through the tables: %d agree with the "
                        + "software replay, %d reachable", machine.topology, pairs, agree, reachable)));
                return agree == pairs ? 0 : 1;
            }
        }
    }

    @Command(name = "scan", mixinStandardHelpOptions = true, description = "Status scan of every NRC found: single, cyclic or compare mode.")
    static final class Scan extends ServerCommand {

        @Option(names = "--mode", paramLabel = "MODE", description = "single, cyclic or compare (default: ${DEFAULT-VALUE}).")
        String mode = "single";

        @Option(names = "--interval", paramLabel = "CYCLES", description = "cyclic and compare: cycles between the starts of two scans (default: ${DEFAULT-VALUE}).")
        long interval = 100_000;

        @Option(names = "--rounds", paramLabel = "N", description = "cyclic: scans in all (default: ${DEFAULT-VALUE}).")
        int rounds = 3;

        @Option(names = "--per-request", paramLabel = "K", description = "Registers per request, 1 or 2 (default: ${DEFAULT-VALUE}, the paper's 120 requests per NRC).")
        int perRequest = 2;

        @Option(names = "--cut-after", paramLabel = "NRC:PORT", description = "The cable at PORT of NRC is cut after the first scan. Repeatable.")
        List<String> cutAfter = new ArrayList<>();

        @Option(names = "--all-changes", description = "List every changed register, the traffic counters the scan's own packets move "
                + "(FRAMES_SENT, FLITS_RECEIVED) and each register of a chip that did not answer included.")
        boolean allChanges;

        /**
         * The changes since the scan before: each one, or by default without the scan's own traffic counters and with a
         * chip that stopped answering as one line.
         */
        static void printChanges(PrintWriter out, int since, List<StatusScan.Change> diff, boolean all) {
            java.util.Set<StatusScan.Change> traffic = new java.util.HashSet<>(diff.stream().filter(c -> c.register().endsWith(NmaRegisters.PORT_FRAMES_SENT)
                    || c.register().endsWith(NmaRegisters.PORT_FLITS_RECEIVED)).toList());
            out.printf(Locale.ROOT, "changes since scan %d: %,d registers%s%n", since, diff.size(), all || traffic.isEmpty() ? ""
                    : String.format(Locale.ROOT, " (%,d of them FRAMES_SENT and FLITS_RECEIVED, moved by the scan's own packets: --all-changes lists them)",
                            traffic.size()));
            Map<Integer, Integer> silent = new LinkedHashMap<>();
            for (StatusScan.Change c : diff) {
                if (!all && c.after() == null) {
                    silent.merge(c.chipId(), 1, Integer::sum);
                } else if (all || !traffic.contains(c)) {
                    out.println("  " + c);
                }
            }
            silent.forEach((chip, n) -> out.printf(Locale.ROOT, "  NRC 0x%04x: no answer (%d registers)%n", chip, n));
        }

        @Override
        public Integer call() {
            if (!List.of("single", "cyclic", "compare").contains(mode)) {
                throw new ParameterException(spec.commandLine(), "--mode must be single, cyclic or compare, got '" + mode + "'");
            }
            if (interval < 0 || rounds < 1 || perRequest < 1 || perRequest > 2) {
                throw new ParameterException(spec.commandLine(), "--interval must be at least 0, --rounds at least 1, --per-request 1 or 2");
            }
            int scans = mode.equals("single") ? 1 : mode.equals("compare") ? 2 : rounds;
            Th2FatTree t = machine.tree(spec);
            List<Integer> cuts = new ArrayList<>();
            for (String c : cutAfter) {
                cuts.add(cable(spec, t, "--cut-after", c));
            }
            if (!cuts.isEmpty() && scans < 2) {
                throw new ParameterException(spec.commandLine(), "--cut-after needs a second scan: --mode compare or cyclic");
            }
            try (Run run = new Run(spec, machine, server, "scan --topology " + machine.topology + " --mode " + mode)) {
                Discovery.Result found = run.discover();
                StatusScan.Snapshot previous = null;
                List<Object> rounds = new ArrayList<>();
                long changes = 0;
                for (int i = 0; i < scans; i++) {
                    if (i > 0) {
                        long wait = previous.startCycle() + interval - run.ms.machine.fabric.now();
                        if (i == 1) {
                            for (int c : cuts) {
                                run.ms.machine.cut(c, true);
                            }
                        }
                        if (wait > 0) {
                            run.phase("waiting " + wait + " cycles");
                            run.ms.machine.fabric.run(wait);
                        }
                    }
                    run.phase("scan " + (i + 1) + " of " + scans);
                    long w = System.nanoTime();
                    StatusScan.Snapshot s = run.ms.scan(found, perRequest);
                    double wall = (System.nanoTime() - w) / 1e9;
                    run.out.printf(Locale.ROOT, "scan %d: %,d registers of %,d NRCs, %,d requests (%,d failed), %,d cycles = %.1f us simulated, %.1f s wall%n",
                            i + 1, s.readings().size(), found.nrcs().size(), s.requests(), s.failures(), s.cycles(), ManagementServer.micros(s.cycles()), wall);
                    Map<String, Object> round = new LinkedHashMap<>();
                    round.put("requests", s.requests());
                    round.put("failed", s.failures());
                    round.put("cycles", s.cycles());
                    round.put("simulated_us", ManagementServer.micros(s.cycles()));
                    round.put("wall_seconds", wall);
                    if (previous != null) {
                        List<StatusScan.Change> diff = StatusScan.compare(previous, s);
                        changes += diff.size();
                        printChanges(run.out, i, diff, allChanges);
                        round.put("changes", diff);
                    } else if (mode.equals("single")) {
                        round.put("readings", s.readings().values());
                    }
                    rounds.add(round);
                    previous = s;
                }
                run.json.put("scans", rounds);
                run.finish(spec, machine, run.summary(String.format(Locale.ROOT, "%s: %d scan%s of %,d NRCs (%s)%s", machine.topology, scans, scans == 1 ? "" : "s",
                        found.nrcs().size(), mode, scans > 1 ? String.format(Locale.ROOT, ", %,d register changes", changes) : "")));
            }
            return 0;
        }
    }

    @Command(name = "faults", mixinStandardHelpOptions = true, description = "Fault reports of every NRC and NIC to the server, then cables cut: the fault log.")
    static final class Faults extends ServerCommand {

        @Option(names = "--cut-after", paramLabel = "NRC:PORT", description = "The cable at PORT of NRC is cut once reports are enabled. Repeatable.")
        List<String> cutAfter = new ArrayList<>();

        @Option(names = "--cut-node-after", paramLabel = "NODE", description = "The cable between node NODE's NIC and its NRC is cut once reports are enabled. Repeatable.")
        List<Integer> cutNodeAfter = new ArrayList<>();

        @Option(names = "--wait", paramLabel = "CYCLES", description = "Cycles to collect reports after the cuts (default: ${DEFAULT-VALUE}).")
        long wait = 20_000;

        @Override
        public Integer call() {
            Th2FatTree t = machine.tree(spec);
            List<Integer> cuts = new ArrayList<>();
            for (String c : cutAfter) {
                cuts.add(cable(spec, t, "--cut-after", c));
            }
            for (int n : cutNodeAfter) {
                if (n < 0 || n >= t.nodes().size() || n == server.serverNode) {
                    throw new ParameterException(spec.commandLine(), "--cut-node-after " + n + ": nodes are 0.." + (t.nodes().size() - 1)
                            + ", the server's (" + server.serverNode + ") excepted");
                }
            }
            if (wait < 1) {
                throw new ParameterException(spec.commandLine(), "--wait must be at least 1 cycle");
            }
            try (Run run = new Run(spec, machine, server, "faults --topology " + machine.topology)) {
                Discovery.Result found = run.discover();
                run.phase("enabling fault reports");
                long failed = run.ms.enableFaultReports(found);
                run.out.printf(Locale.ROOT, "fault reports enabled on %d NRCs and %d NICs (%d requests failed): %s%n", found.nrcs().size(),
                        found.nics().size(), failed, FaultLog.REPORTED);
                int before = run.ms.faults.entries().size();
                for (int c : cuts) {
                    run.ms.machine.cut(c, true);
                }
                for (int n : cutNodeAfter) {
                    run.ms.machine.cutNode(n, true);
                }
                run.phase("collecting reports");
                run.ms.machine.fabric.run(wait);
                run.ms.server.endpoint.poll();
                List<FaultLog.Entry> log = run.ms.faults.entries();
                log.forEach(e -> run.out.println("  " + e));
                run.json.put("fault_log", log);
                run.finish(spec, machine, run.summary(String.format(Locale.ROOT, "%s: %d fault report%s (%d after the cuts)", machine.topology, log.size(), log.size() == 1 ? "" : "s",
                        log.size() - before)));
            }
            return 0;
        }
    }

    @Command(name = "bist", mixinStandardHelpOptions = true, description = "Link BIST on the cable at a port of an NRC, both ways, results from both ends.")
    static final class Bist extends ServerCommand {

        @Option(names = "--link", paramLabel = "NRC:PORT", required = true, description = "The cable at PORT of NRC (its index in the tree), to another NRC or to a node's NIC.")
        String link;

        @Option(names = "--frames", paramLabel = "N", description = "BIST frames each way (default: ${DEFAULT-VALUE}).")
        long frames = 10_000;

        @Option(names = "--interval", paramLabel = "K", description = "One BIST frame every K slots, 0..255 (default: ${DEFAULT-VALUE}: every slot).")
        int interval = 1;

        @Option(names = "--ber", paramLabel = "RATE", description = "Bit error rate injected on that cable (default: ${DEFAULT-VALUE}).")
        double ber = 0;

        @Override
        public Integer call() {
            Th2FatTree t = machine.tree(spec);
            // a node's cable (NRC to NIC) or else a cable between NRCs
            int[] at = nrcPort(spec, "--link", link);
            int nrc = at[0];
            int port = at[1];
            int node = t.nodeAt(nrc, port);
            if (node >= 0 && node == server.serverNode) {
                throw new ParameterException(spec.commandLine(), "--link " + link + ": that is the server's own cable");
            }
            int c = node >= 0 ? -1 : cable(spec, t, "--link", link);
            if (frames < 1 || frames > 0xFFFF_FFFFL || interval < 0 || interval > 255 || ber < 0 || ber > 0.5) {
                throw new ParameterException(spec.commandLine(), "--frames must be 1..4294967295, --interval 0..255, --ber 0..0.5");
            }
            try (Run run = new Run(spec, machine, server, "bist --topology " + machine.topology)) {
                Discovery.Result found = run.discover();
                if (ber > 0 && node >= 0) {
                    run.ms.machine.nodeBitErrors(node, ber, 1);
                } else if (ber > 0) {
                    run.ms.machine.bitErrors(c, ber, 1);
                }
                run.phase("BIST");
                BistRun.Result r = BistRun.run(run.ms.pipe, run.ms.machine.fabric, found, Th2Machine.NRC_ID_BASE + nrc, port, frames, interval,
                        (frames * Math.max(1, interval) + 1_000) * 8);
                run.out.println("  " + r.there());
                run.out.println("  " + r.back());
                run.json.put("bist", r);
                run.finish(spec, machine, run.summary(String.format(Locale.ROOT, "%s: BIST on NRC %d port %d, %d frames each way in %,d cycles: %d and %d errored frames",
                        machine.topology, nrc, port, frames, r.cycles(), r.there().erroredFrames(), r.back().erroredFrames())));
            }
            return 0;
        }
    }

    @Command(name = "serve", mixinStandardHelpOptions = true, description = "The web console (topology, device, fault, traffic and log views) "
            + "on the management server and the simulated machine, until interrupted (docs/th2-console.md).")
    static final class Serve extends ServerCommand {
        @Option(names = "--port", paramLabel = "PORT", description = "HTTP port, 0 for any free one (default: ${DEFAULT-VALUE}).")
        int port = 8080;

        @Option(names = "--bind", paramLabel = "HOST", description = "Address to listen on (default: ${DEFAULT-VALUE}: this machine only).")
        String bind = "127.0.0.1";

        @Option(names = "--seconds", paramLabel = "S", description = "Stop after S seconds (default: run until interrupted).")
        Long seconds;

        @Override
        public Integer call() throws InterruptedException {
            if (port < 0 || port > 65535 || seconds != null && seconds < 1) {
                throw new ParameterException(spec.commandLine(), "--port is 0..65535 and --seconds at least 1");
            }
            Run run = new Run(spec, machine, server, "serve --topology " + machine.topology);
            if (run.progress != null) {
                run.progress.close();
            }
            MachineSession session = new MachineSession(machine.topology, run.ms);
            session.start();
            Console console = new Console(session);
            int p;
            try {
                p = console.start(bind, port);
            } catch (RuntimeException e) {
                session.close();
                throw CliError.failure("cannot serve on " + bind + ":" + port + ": " + e.getMessage());
            }
            java.util.concurrent.CountDownLatch stop = new java.util.concurrent.CountDownLatch(1);
            Thread hook = new Thread(() -> {
                console.close();
                session.close();
                stop.countDown();
            });
            Runtime.getRuntime().addShutdownHook(hook);
            PrintWriter out = spec.commandLine().getOut();
            String host = bind.contains(":") ? "[" + bind + "]" : bind;
            out.printf(Locale.ROOT, "console: http://%s:%d/?token=%s%n", host, p, console.token);
            out.printf(Locale.ROOT, "token: %s (send it as X-Token with every POST and PUT)%n", console.token);
            out.printf(Locale.ROOT, "API: http://%s:%d/api/chips, description http://%s:%d/api/openapi.yaml; Ctrl-C stops%n", host, p, host, p);
            out.flush();
            if (seconds != null) {
                stop.await(seconds, java.util.concurrent.TimeUnit.SECONDS);
                Runtime.getRuntime().removeShutdownHook(hook);
                hook.run();
            } else {
                stop.await();
            }
            return 0;
        }
    }
}
