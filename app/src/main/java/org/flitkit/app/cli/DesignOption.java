package org.flitkit.app.cli;

import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.flitkit.app.Catalog;
import org.flitkit.hdl.Module;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Which design a command works on: a name from the catalog ({@code hdl verilog flit-loopback}) or a
 * Module class of the user's own ({@code --class my.pkg.Top --classpath build}).
 */
final class DesignOption {
    @Parameters(index = "0", arity = "0..1", paramLabel = "<design>", description = "Name from 'hdl list' (or use --class).")
    String name;

    @Option(names = "--class", paramLabel = "CLASS",
            description = "Your own Module class, e.g. my.pkg.Top, built by its public no-argument constructor or its public "
                    + "static no-argument factory method.")
    String className;

    /** The help of {@code --classpath}, here and in {@link ScenarioOption}. */
    static final String CLASSPATH_HELP = "Directories and jars holding --class, separated by ':' (';' on Windows; default: "
            + "$HDL_CLASSPATH). Compile against FlitKit with: javac -cp \"$(./hdl classpath)\" ...";

    @Option(names = "--classpath", paramLabel = "PATH", defaultValue = "${env:HDL_CLASSPATH}", description = CLASSPATH_HELP)
    String classpath;

    /** A resolved design: {@code label} names it in output, {@code origin} says where it came from and how it is built. */
    record Design(String label, String origin, Supplier<? extends Module> top) {
    }

    Design resolve(Catalog catalog) {
        if ((name == null) == (className == null)) {
            throw CliError.usage(name == null ? "give a design name from 'hdl list' or --class CLASS"
                    : "give either a design name or --class, not both");
        }
        if (name != null) {
            Catalog.DesignEntry e = catalog.design(name).orElseThrow(() -> CliError.usage("unknown design '" + name
                    + "'; available: " + catalog.designs().stream().map(Catalog.DesignEntry::name).collect(Collectors.joining(", "))));
            return new Design(name, "catalog design " + name, e.top());
        }
        UserDesign d = UserDesign.load(className, classpath);
        return new Design(d.type().getName(), d.type().getName() + ", built by " + d.how(), d.top());
    }
}
