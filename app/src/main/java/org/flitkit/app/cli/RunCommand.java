package org.flitkit.app.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.flitkit.app.Catalog;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.sim.SimAssertionError;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Scenario;
import org.flitkit.testbench.ScenarioResult;
import org.flitkit.testbench.TestbenchFailure;
import org.flitkit.waves.VcdLimitExceeded;
import picocli.CommandLine.Command;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** {@code hdl run <testbench>|--class CLASS}: runs it and ends with one PASS/FAIL line; exit code 0 only on PASS. */
@Command(name = "run", description = "Run a testbench, from the catalog or your own (--class); the last line is the PASS/FAIL "
        + "summary (exit code 0 only on PASS).")
final class RunCommand implements Callable<Integer> {
    @ParentCommand
    Main hdl;

    CommandSpec spec;

    /** Adds the named testbench's own options and the legend of its counts to {@code hdl run NAME --help}. */
    @Spec
    void spec(CommandSpec s) {
        spec = s;
        List<String> keys = new ArrayList<>(s.usageMessage().sectionKeys());
        keys.add(keys.indexOf(UsageMessageSpec.SECTION_KEY_FOOTER_HEADING), TESTBENCH_SECTION);
        s.usageMessage().sectionKeys(keys);
        Map<String, IHelpSectionRenderer> sections = new LinkedHashMap<>(s.usageMessage().sectionMap());
        sections.put(TESTBENCH_SECTION, help -> hdl == null ? "" : TestbenchHelp.of(hdl.catalog(), testbench == null ? null : testbench.name));
        s.usageMessage().sectionMap(sections);
    }

    private static final String TESTBENCH_SECTION = "testbench";

    @Mixin
    ScenarioOption testbench;

    @Option(names = "--cycles", paramLabel = "N", description = "Cycles of stimulus (default: the testbench's, usually 20000).")
    Long cycles;

    @Option(names = "--seed", paramLabel = "S", description = "Root random seed (default: ${DEFAULT-VALUE}).")
    long seed = RunConfig.DEFAULT_SEED;

    @Mixin
    RunOptions options;

    /** The testbench's own options ({@code --loss 0.1}), checked against its catalog entry. */
    @Unmatched
    List<String> scenarioArgs = new ArrayList<>();

    @Override
    public Integer call() {
        Catalog.TestbenchEntry entry = testbench.resolve(hdl.catalog(), scenarioArgs);
        String name = entry.name();
        if (cycles != null && cycles < 1) {
            throw new ParameterException(spec.commandLine(), "--cycles must be at least 1, got " + cycles);
        }
        Scenario scenario;
        try {
            scenario = entry.scenario(scenarioOptions());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        options.checkVcdWritable();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String what = name + " seed=" + seed;
        try {
            ScenarioResult r;
            try (ProgressBars progress = options.progressBars(name)) {
                r = scenario.run(options.config(seed, cycles != null ? cycles : entry.defaultCycles(), progress));
            }
            if (r.compile() != null) {
                out.printf(Locale.ROOT, "built in %.2fs (%s)%n", r.buildSeconds(), r.compile());
            }
            printWaves(out, r);
            out.println(summary("PASS " + what, r));
            out.flush();
            return 0;
        } catch (TestbenchFailure | SimAssertionError f) {
            return Failures.report(out, err, what, f, options.vcd);
        } catch (HdlException e) {
            err.println(e.getMessage());
            err.flush();
            out.println("FAIL " + what + ": the design did not elaborate");
            out.flush();
            return 1;
        } catch (VcdLimitExceeded e) {
            throw options.limitReached(e);
        }
    }

    /** {@code --name value} (or {@code --name=value}) pairs of the scenario's own options, by name without dashes. */
    private Map<String, String> scenarioOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < scenarioArgs.size(); i++) {
            String a = scenarioArgs.get(i);
            if (!a.startsWith("--") || a.length() == 2) {
                throw new ParameterException(spec.commandLine(), "unexpected argument '" + a + "'");
            }
            int eq = a.indexOf('=');
            if (eq > 0) {
                m.put(a.substring(2, eq), a.substring(eq + 1));
            } else if (i + 1 < scenarioArgs.size() && !scenarioArgs.get(i + 1).startsWith("--")) {
                m.put(a.substring(2), scenarioArgs.get(++i));
            } else {
                throw new ParameterException(spec.commandLine(), "option " + a + " needs a value");
            }
        }
        return m;
    }

    /** Where the waves went and the command that opens them, when the run dumped any. */
    static void printWaves(PrintWriter out, ScenarioResult r) {
        if (r.vcd() != null) {
            out.printf(Locale.ROOT, "waves: %s (%s)%n", r.vcd(), size(r.vcd()));
            out.println(r.gtkw() != null ? "  view: gtkwave " + r.vcd() + " " + r.gtkw() : "  view: gtkwave " + r.vcd());
        }
    }

    /**
     * The PASS/FAIL line: cycles, the scenario's counts, time and rate. A scenario that reports no cycles gets neither
     * cycles nor a rate on its line.
     */
    static String summary(String head, ScenarioResult r) {
        StringBuilder sb = new StringBuilder(head);
        if (r.cycles() > 0) {
            sb.append(" cycles=").append(r.cycles());
        }
        for (Map.Entry<String, Long> e : r.counts().entrySet()) {
            sb.append(' ').append(e.getKey()).append('=').append(e.getValue());
        }
        sb.append(String.format(Locale.ROOT, " time=%.2fs", r.simSeconds()));
        if (r.cycles() > 0) {
            sb.append(String.format(Locale.ROOT, " (%,d cycles/s)", Math.round(r.cyclesPerSecond())));
        }
        return sb.toString();
    }

    private static String size(Path p) {
        try {
            return ByteSize.format(Files.size(p));
        } catch (java.io.IOException e) {
            return "size unknown";
        }
    }
}
