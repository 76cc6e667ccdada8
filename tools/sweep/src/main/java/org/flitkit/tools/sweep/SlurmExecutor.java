package org.flitkit.tools.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Runs points as the tasks of Slurm array jobs: writes an sbatch script into the store, submits it with
 * {@code sbatch --parsable --wait --array=0-N} and returns when every task has ended. Each task runs
 * {@code <task command> sweep-point STORE INDEX} on a node, so the store must be on a filesystem the nodes share
 * (docs/sweeps.md, "Slurm").
 */
public final class SlurmExecutor implements SweepExecutor {
    /** Slurm's default MaxArraySize is 1001: task ids 0..1000. Larger sweeps go as several arrays. */
    public static final int MAX_ARRAY = 1000;

    /**
     * How to submit: the command a task runs ({@code /path/to/hdl}, or {@code java -cp ... Main}), the partition and
     * time limit ({@code null}: the cluster's defaults), the sbatch program and further sbatch arguments.
     */
    public record Options(List<String> taskCommand, String partition, String timeLimit, String sbatch, List<String> extraArgs) {
        public Options {
            taskCommand = List.copyOf(taskCommand);
            extraArgs = List.copyOf(extraArgs);
            if (taskCommand.isEmpty()) {
                throw new IllegalArgumentException("slurm: no task command (the ./hdl the nodes run)");
            }
        }

        /** Tasks run {@code hdl}, on the cluster's default partition and time limit. */
        public static Options of(Path hdl) {
            return new Options(List.of(hdl.toAbsolutePath().normalize().toString()), null, null, "sbatch", List.of());
        }

        public Options withPartition(String p) {
            return new Options(taskCommand, p, timeLimit, sbatch, extraArgs);
        }

        public Options withTimeLimit(String t) {
            return new Options(taskCommand, partition, t, sbatch, extraArgs);
        }

        public Options withSbatch(String s) {
            return new Options(taskCommand, partition, timeLimit, s, extraArgs);
        }
    }

    private final Options options;
    private int attempt;

    public SlurmExecutor(Options options) {
        this.options = options;
    }

    @Override
    public String name() {
        return "slurm";
    }

    @Override
    public void run(SweepStore store, List<Point> points) {
        for (int from = 0; from < points.size(); from += MAX_ARRAY + 1) {
            submit(store, points.subList(from, Math.min(points.size(), from + MAX_ARRAY + 1)));
        }
    }

    /** One array job of {@code points} (at most MAX_ARRAY + 1), waited for. */
    private void submit(SweepStore store, List<Point> points) {
        Path slurmDir = store.dir().resolve("slurm");
        Path script;
        // numbered on from the arrays of earlier runs of this store, whose scripts and outputs stay for reading
        do {
            attempt++;
            script = slurmDir.resolve(String.format(Locale.ROOT, "array-%d.sh", attempt));
        } while (Files.exists(script));
        List<String> cmd = new ArrayList<>(List.of(options.sbatch(), "--parsable", "--wait", "--array=0-" + (points.size() - 1)));
        if (options.partition() != null) {
            cmd.add("--partition=" + options.partition());
        }
        if (options.timeLimit() != null) {
            cmd.add("--time=" + options.timeLimit());
        }
        cmd.addAll(options.extraArgs());
        cmd.add(script.toString());
        Path out = slurmDir.resolve("array-" + attempt + ".sbatch.out");
        Path err = slurmDir.resolve("array-" + attempt + ".sbatch.err");
        int exit;
        try {
            Files.createDirectories(slurmDir);
            Files.writeString(script, script(store, points), StandardCharsets.UTF_8);
            script.toFile().setExecutable(true);
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            exit = p.waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("slurm: cannot run '" + options.sbatch() + "' (" + e.getMessage() + "); is Slurm installed here?", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("slurm: interrupted while waiting for " + String.join(" ", cmd), e);
        }
        // --parsable prints the job id as soon as the job is accepted; --wait's exit code is then the tasks' (failed
        // tasks are found in the store, not here)
        String jobId = read(out).strip();
        if (!jobId.matches("[0-9]+(;.*)?")) {
            throw new IllegalStateException("slurm: sbatch did not accept the job (exit " + exit + "): " + read(err).strip() + " [" + String.join(" ", cmd)
                    + "]");
        }
    }

    /** The array job: task i runs points[i] with its output appended to that point's log. */
    String script(SweepStore store, List<Point> points) {
        String storeDir = quote(store.dir().toString());
        return "#!/bin/bash\n"
                + "#SBATCH --job-name=flitkit-" + store.manifest().sweep() + "\n"
                + "#SBATCH --output=" + store.dir().resolve("slurm") + "/array-" + attempt + "-%a.out\n"
                + "#SBATCH --chdir=" + store.dir() + "\n"
                + "#SBATCH --ntasks=1\n"
                + "#SBATCH --cpus-per-task=1\n"
                + "# FlitKit sweep " + store.manifest().sweep() + ": task i of this array runs point points[i] (docs/sweeps.md)\n"
                + "points=(" + points.stream().map(p -> Integer.toString(p.index())).collect(Collectors.joining(" ")) + ")\n"
                + "index=${points[$SLURM_ARRAY_TASK_ID]}\n"
                + "log=" + storeDir + "/logs/$(printf '%05d' \"$index\").log\n"
                + "echo \"slurm job ${SLURM_ARRAY_JOB_ID:-?} task $SLURM_ARRAY_TASK_ID on $(hostname)\" >>\"$log\"\n"
                + "exec " + options.taskCommand().stream().map(SlurmExecutor::quote).collect(Collectors.joining(" "))
                + " sweep-point " + storeDir + " \"$index\" >>\"$log\" 2>&1\n";
    }

    /** {@code s} as one bash word. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static String read(Path f) {
        try {
            return Files.isRegularFile(f) ? Files.readString(f, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
    }
}
