package org.flitkit.app.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flitkit.tools.sweep.LocalExecutor;
import org.flitkit.tools.sweep.PointTask;
import org.flitkit.tools.sweep.SlurmExecutor;
import org.flitkit.tools.sweep.SweepExecutor;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where the points of {@code hdl sweep} and {@code hdl difftest --executor} run: in this JVM (local) or as Slurm array
 * tasks, each running {@code ./hdl sweep-point} (docs/sweeps.md, "Executors").
 */
final class ExecutorOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--executor", paramLabel = "local|slurm", description = "Where the points run: local (this machine, all "
            + "processors) or slurm (array jobs through sbatch; the store must be on a filesystem the nodes share).")
    String executor;

    @Option(names = "--partition", paramLabel = "P", description = "Slurm partition (default: the cluster's default).")
    String partition;

    @Option(names = "--time-limit", paramLabel = "T", description = "Slurm time limit of one point, as sbatch --time takes it (e.g. 30:00).")
    String timeLimit;

    @Option(names = "--hdl", paramLabel = "PATH", description = "The ./hdl the Slurm tasks run (default: this installation's).")
    Path hdl;

    @Option(names = "--jobs", paramLabel = "N", description = "Local executor: points at a time (default: the number of processors).")
    Integer jobs;

    /** The executor asked for ({@code local} when none was), its points run by {@code task}. */
    SweepExecutor create(PointTask task) {
        String name = executor == null ? "local" : executor;
        if (jobs != null && jobs < 1) {
            throw new ParameterException(command.commandLine(), "--jobs must be at least 1, got " + jobs);
        }
        switch (name) {
            case "local" -> {
                if (partition != null || timeLimit != null || hdl != null) {
                    throw new ParameterException(command.commandLine(), "--partition, --time-limit and --hdl are options of --executor slurm");
                }
                return jobs != null ? new LocalExecutor(task, jobs) : new LocalExecutor(task);
            }
            case "slurm" -> {
                if (jobs != null) {
                    throw new ParameterException(command.commandLine(), "--jobs is an option of --executor local (Slurm decides how many tasks run)");
                }
                Path script = hdl != null ? hdl : installedHdl();
                if (!Files.isExecutable(script)) {
                    throw new ParameterException(command.commandLine(), "--hdl " + script + " is not an executable file");
                }
                return new SlurmExecutor(SlurmExecutor.Options.of(script).withPartition(partition).withTimeLimit(timeLimit));
            }
            default -> throw new ParameterException(command.commandLine(), "--executor must be local or slurm, not '" + executor + "'");
        }
    }

    /** The {@code hdl} script of the checkout these classes were built in (they live in its app/target). */
    static Path installedHdl() {
        try {
            Path here = Path.of(ExecutorOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path p = here; p != null; p = p.getParent()) {
                if (Files.isRegularFile(p.resolve("hdl")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                    return p.resolve("hdl");
                }
            }
            throw CliError.usage("cannot find the ./hdl script above " + here + "; give it with --hdl PATH");
        } catch (URISyntaxException e) {
            throw CliError.usage("cannot find the ./hdl script (" + e.getMessage() + "); give it with --hdl PATH");
        }
    }
}
