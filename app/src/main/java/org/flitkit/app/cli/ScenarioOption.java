package org.flitkit.app.cli;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.flitkit.app.Catalog;
import org.flitkit.testbench.RunConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Which scenario {@code hdl run} runs: a testbench name from the catalog ({@code hdl run flit-loopback}) or a
 * scenario class of the user's own ({@code --class my.pkg.MyScenario --classpath target/classes}), which then
 * runs as a catalog entry without options of its own.
 */
final class ScenarioOption {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Parameters(index = "0", arity = "0..1", paramLabel = "<testbench>", description = "Name from 'hdl list' (or use --class).")
    String name;

    @Option(names = "--class", paramLabel = "CLASS",
            description = "Your own scenario, e.g. my.pkg.MyScenario: a class with a public static ScenarioResult run(RunConfig) "
                    + "method, or a Scenario with a public no-argument constructor.")
    String className;

    @Option(names = "--classpath", paramLabel = "PATH", defaultValue = "${env:HDL_CLASSPATH}", description = DesignOption.CLASSPATH_HELP)
    String classpath;

    /** The entry to run; {@code scenarioArgs} are the options the command line left over, which a class cannot take. */
    Catalog.TestbenchEntry resolve(Catalog catalog, List<String> scenarioArgs) {
        if (className != null && !scenarioArgs.isEmpty()) {
            // before the name check: the value of an option given here ('--loss 0.1') lands in the name
            String option = scenarioArgs.get(0).split("=", 2)[0];
            throw new ParameterException(command.commandLine(), "testbench " + className + " has no option " + option
                    + " (a --class scenario takes only the options of 'hdl run')");
        }
        if ((name == null) == (className == null)) {
            throw CliError.usage(name == null ? "give a testbench name from 'hdl list' or --class CLASS"
                    : "give either a testbench name or --class, not both");
        }
        if (name != null) {
            return catalog.testbench(name).orElseThrow(() -> new ParameterException(command.commandLine(),
                    "unknown testbench '" + name + "'; available: "
                            + catalog.testbenches().stream().map(Catalog.TestbenchEntry::name).collect(Collectors.joining(", "))));
        }
        UserScenario s = UserScenario.load(className, classpath);
        return new Catalog.TestbenchEntry(s.type().getName(), "run by " + s.how(), RunConfig.DEFAULT_CYCLES, Map.of(),
                values -> s.scenario(), Map.of());
    }
}
