package org.flitkit.app.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.flitkit.env.ring.MultiringFigures;
import org.flitkit.env.ring.topo.Applications;
import org.flitkit.env.ring.topo.CapacityReport;
import org.flitkit.env.ring.topo.DesignExistence;
import org.flitkit.env.ring.topo.MultiRing;
import org.flitkit.env.ring.topo.MultiRingSearch;
import org.flitkit.env.ring.topo.RingFamilies;
import org.flitkit.env.ring.topo.RingSchedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code hdl multiring}: the analytic side of multi-rings and distributed full switches (docs/multiring.md): effective
 * capacity of a multi-ring under a schedule, the spec's families, the best multi-ring search, which block designs exist.
 */
@Command(name = "multiring", description = "Multi-ring capacity, schedules, block designs (docs/multiring.md).",
        subcommands = {MultiringCommand.CapacityCommand.class, MultiringCommand.BestCommand.class, MultiringCommand.DesignsCommand.class,
                MultiringCommand.AppsCommand.class, MultiringCommand.PlotsCommand.class})
final class MultiringCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: capacity, best, designs, apps or plots");
    }

    private static MultiRing rings(CommandSpec spec, int nodes, String steps) {
        try {
            return MultiRing.parse(nodes, steps);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private static void print(CommandSpec spec, List<String> lines) {
        PrintWriter out = spec.commandLine().getOut();
        lines.forEach(out::println);
        out.flush();
    }

    @Command(name = "capacity", mixinStandardHelpOptions = true,
            description = "Ring loads L_j and effective capacity C = N(N-1)/L_max of a multi-ring, or (--families) the spec's families.")
    static final class CapacityCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--nodes", paramLabel = "N", description = "Nodes on every ring.")
        Integer nodes;

        @Option(names = "--steps", paramLabel = "LIST", description = "Ring steps: 1,3 (duplex pairs +-1,+-3), +2 (simplex), -2 (counter ring).")
        String steps;

        @Option(names = "--schedule", paramLabel = "NAME", description = "shortest or balanced (default: ${DEFAULT-VALUE}).")
        String schedule = "shortest";

        @Option(names = "--families", description = "The spec's multi-ring families for N = 16..128: C for both schedules.")
        boolean families;

        @Override
        public Integer call() {
            if (families) {
                if (nodes != null || steps != null) {
                    throw new ParameterException(spec.commandLine(), "--families takes no --nodes or --steps");
                }
                print(spec, List.of(CapacityReport.familyHeader()));
                for (RingFamilies.Member m : RingFamilies.SPEC) {
                    print(spec, List.of(CapacityReport.familyRow(m.rings())));
                }
                return 0;
            }
            if (nodes == null || steps == null) {
                throw new ParameterException(spec.commandLine(), "give --nodes N and --steps LIST, or --families");
            }
            MultiRing m = rings(spec, nodes, steps);
            RingSchedule s;
            try {
                s = RingSchedule.named(schedule, m);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            print(spec, CapacityReport.rings(s.capacity()));
            return 0;
        }
    }

    @Command(name = "best", mixinStandardHelpOptions = true,
            description = "The best duplex multi-rings of --pairs pairs over --nodes nodes, by C of the shortest schedule.")
    static final class BestCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--nodes", paramLabel = "N", required = true, description = "Nodes.")
        int nodes;

        @Option(names = "--pairs", paramLabel = "n", required = true, description = "Duplex ring pairs +-s.")
        int pairs;

        @Option(names = "--top", paramLabel = "K", description = "How many to print (default: ${DEFAULT-VALUE}).")
        int top = 5;

        @Override
        public Integer call() {
            if (top < 1) {
                throw new ParameterException(spec.commandLine(), "--top must be at least 1, got " + top);
            }
            List<MultiRingSearch.Candidate> best;
            try {
                best = MultiRingSearch.best(nodes, pairs, top);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            print(spec, List.of(CapacityReport.familyHeader()));
            best.forEach(c -> print(spec, List.of(CapacityReport.familyRow(c.rings()))));
            return 0;
        }
    }

    @Command(name = "designs", mixinStandardHelpOptions = true,
            description = "Symmetric block designs B(N,m,a) for m = 2..--max-m: constructed, does not exist, or not constructed, and why.")
    static final class DesignsCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--a", paramLabel = "A", description = "Switches every two subscribers share (default: ${DEFAULT-VALUE}).")
        int a = 1;

        @Option(names = "--max-m", paramLabel = "M", description = "Largest switch size m (default: ${DEFAULT-VALUE}).")
        int maxM = 12;

        @Override
        public Integer call() {
            if (a < 1 || maxM < 2) {
                throw new ParameterException(spec.commandLine(), "--a must be >= 1 and --max-m >= 2");
            }
            for (int m = 2; m <= maxM; m++) {
                if (m * (m - 1) % a == 0) {
                    print(spec, List.of(DesignExistence.of(m, a).toString()));
                }
            }
            return 0;
        }
    }

    @Command(name = "apps", mixinStandardHelpOptions = true,
            description = "The applications as configurations: Gemini torus dimensions, Blue Waters supernodes, sparse multi-rings.")
    static final class AppsCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            print(spec, List.of("Cray Gemini torus, identical duplex rings replaced by multi-rings:"));
            print(spec, Applications.gemini());
            print(spec, List.of("", "Blue Waters:"));
            print(spec, Applications.blueWaters());
            print(spec, List.of("", "Sparse multi-rings:"));
            print(spec, Applications.sparse());
            return 0;
        }
    }

    @Command(name = "plots", mixinStandardHelpOptions = true,
            description = "Writes multiring-capacity-vs-n and multiring-delivery-vs-load (PNG and CSV); the second runs the RTL.")
    static final class PlotsCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--out", paramLabel = "DIR", description = "Directory (default: ${DEFAULT-VALUE}).")
        java.nio.file.Path out = java.nio.file.Path.of("docs/figures");

        @Option(names = "--cycles", paramLabel = "N", description = "Measured cycles per load point (default: ${DEFAULT-VALUE}).")
        long cycles = 3_000;

        @Override
        public Integer call() {
            if (cycles < 100) {
                throw new ParameterException(spec.commandLine(), "--cycles must be at least 100, got " + cycles);
            }
            List<java.nio.file.Path> written = new java.util.ArrayList<>(MultiringFigures.write(out, "multiring-capacity-vs-n",
                    "Effective capacity C(N) of the spec's multi-ring step sets", "nodes N", "C = N(N-1)/L_max (packets per slot time)",
                    MultiringFigures.capacityVsNodes()));
            written.addAll(MultiringFigures.write(out, "multiring-delivery-vs-load", "Mean delivery time on the slotted multi-ring RTL",
                    "offered load (packets per node per cycle)", "mean delivery time (cycles)", MultiringFigures.deliveryVsLoad(cycles)));
            print(spec, written.stream().map(p -> "wrote " + p).toList());
            return 0;
        }
    }
}
