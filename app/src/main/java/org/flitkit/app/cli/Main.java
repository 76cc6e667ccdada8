package org.flitkit.app.cli;

import java.io.PrintWriter;
import org.flitkit.app.Catalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code ./hdl} command line. Each subcommand is its own class listed here; a new one (bench,
 * difftest, regmap, mgmt) is a class with {@code @ParentCommand Main hdl} for the catalog and one more
 * entry in {@code subcommands}.
 *
 * <p>Exit codes: 0 success, 1 a testbench failed or the command could not do its job, 2 bad usage
 * (unknown command, name or option, a file that cannot be read or written, a class that is not a
 * design). A {@link CliError} from any command is printed as one {@code hdl: ...} line, and so is any other
 * exception, its stack trace in a log file ({@link Failures}).
 */
@Command(name = "hdl", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "FlitKit: run testbenches, simulate designs, dump waves, emit Verilog.",
        subcommands = {ListCommand.class, RunCommand.class, SimCommand.class, RegmapCommand.class, MgmtCommand.class,
                BenchmarkCommand.class, DiffTestCommand.class, VerilogCommand.class, SynthCommand.class, ClasspathCommand.class,
                FiguresCommand.class, NewCommand.class, MultiringCommand.class, FabricCommand.class, SweepCommand.class, SweepPointCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    private final Catalog catalog;

    @Spec
    CommandSpec spec;

    @Option(names = "--debug", scope = ScopeType.INHERIT, description = "On a crash, print the stack trace instead of writing it to a log file.")
    boolean debug;

    public Main(Catalog catalog) {
        this.catalog = catalog;
    }

    public Catalog catalog() {
        return catalog;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing command");
    }

    public static void main(String[] args) {
        System.exit(commandLine(Catalog.standard()).execute(args));
    }

    /** The configured command line over {@code catalog}: short usage errors with a hint instead of the full help. */
    public static CommandLine commandLine(Catalog catalog) {
        CommandLine cl = new CommandLine(new Main(catalog));
        // 'hdl run --help' as well as 'hdl help run': usage errors point there
        cl.getSubcommands().forEach((name, sub) -> sub.getCommandSpec().mixinStandardHelpOptions(!name.equals("help")));
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            PrintWriter err = c.getErr();
            err.println("hdl: " + ex.getMessage());
            err.println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
            err.flush();
            return c.getCommandSpec().exitCodeOnInvalidInput();
        });
        cl.setExecutionStrategy(Failures::runLast);
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            // picocli wraps an Error (a failed check is an AssertionError) in its ExecutionException
            Throwable t = ex instanceof CommandLine.ExecutionException && ex.getCause() != null ? ex.getCause() : ex;
            if (!(t instanceof CliError e)) {
                return Failures.uncaught(c, t, Failures.debug(parsed));
            }
            c.getErr().println("hdl: " + e.getMessage());
            c.getErr().flush();
            return e.exitCode();
        });
        return cl;
    }
}
