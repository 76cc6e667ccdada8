package org.flitkit.tools.synth;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs the external Verilog tools on emitted files: Verilator lint, Yosys synthesis, Icarus compile
 * and simulation. Every run has a timeout (a hung tool is killed and reported, never hangs a build)
 * and returns the exit code with stdout and stderr merged.
 */
public final class VerilogTools {
    /** Default limit for one tool run. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);

    /**
     * The outcome of one tool run.
     *
     * @param command the command line
     * @param exitCode the process exit code (-1 when it timed out)
     * @param output stdout and stderr, merged
     * @param timedOut whether the run was killed at its timeout
     */
    public record Result(List<String> command, int exitCode, String output, boolean timedOut) {
        public boolean ok() {
            return exitCode == 0 && !timedOut;
        }

        /** Exit code 0 and nothing printed (how a clean lint looks). */
        public boolean clean() {
            return ok() && output.isBlank();
        }

        @Override
        public String toString() {
            return String.join(" ", command) + " -> " + (timedOut ? "timed out" : "exit " + exitCode)
                    + (output.isBlank() ? "" : "\n" + output);
        }
    }

    private VerilogTools() {
    }

    /** True when {@code tool} is an executable on the PATH. */
    public static boolean available(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** The {@code .v} files of a directory, sorted by name. */
    public static List<Path> verilogFiles(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".v")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code verilator --lint-only -Wall} on all files; clean means exit 0 and no output. */
    public static Result verilatorLint(List<Path> files, String topModule) {
        List<String> cmd = new ArrayList<>(List.of("verilator", "--lint-only", "-Wall"));
        if (topModule != null) {
            cmd.add("--top-module");
            cmd.add(topModule);
        }
        files.forEach(f -> cmd.add(f.toAbsolutePath().toString()));
        return run(workDir(files), DEFAULT_TIMEOUT, cmd);
    }

    /** {@code yosys -q -p "read_verilog ...; synth -top T"} ({@code -auto-top} when topModule is null). */
    public static Result yosysSynth(List<Path> files, String topModule) {
        return yosysSynth(files, topModule, DEFAULT_TIMEOUT);
    }

    /** Yosys synthesis with an explicit time limit (wide dividers take minutes). */
    public static Result yosysSynth(List<Path> files, String topModule, Duration timeout) {
        StringBuilder script = new StringBuilder("read_verilog");
        files.forEach(f -> script.append(" \"").append(f.toAbsolutePath()).append('"'));
        script.append("; synth ").append(topModule == null ? "-auto-top" : "-top " + topModule);
        return run(workDir(files), timeout, List.of("yosys", "-q", "-p", script.toString()));
    }

    /** {@code iverilog -g2001 -o output files...}. */
    public static Result iverilogCompile(List<Path> files, String topModule, Path output) {
        List<String> cmd = new ArrayList<>(List.of("iverilog", "-g2001"));
        if (topModule != null) {
            cmd.add("-s");
            cmd.add(topModule);
        }
        cmd.add("-o");
        cmd.add(output.toAbsolutePath().toString());
        files.forEach(f -> cmd.add(f.toAbsolutePath().toString()));
        return run(workDir(files), DEFAULT_TIMEOUT, cmd);
    }

    /**
     * Builds a simulation program with {@code verilator --binary --timing} (for a top-level testbench
     * module with delays); the program is {@code objDir/<program>}. Built without C++ optimisation:
     * these programs run short tests, compile time dominates.
     */
    public static Result verilatorBinary(List<Path> files, String topModule, Path objDir, String program, Duration timeout) {
        List<String> cmd = new ArrayList<>(List.of("verilator", "--binary", "--timing", "-j", "2", "-CFLAGS", "-O0",
                "--top-module", topModule, "--Mdir", objDir.toAbsolutePath().toString(), "-o", program));
        files.forEach(f -> cmd.add(f.toAbsolutePath().toString()));
        return run(workDir(files), timeout, cmd);
    }

    /** Runs a compiled Icarus simulation ({@code vvp -n}). */
    public static Result vvp(Path compiled, Duration timeout) {
        return run(compiled.toAbsolutePath().getParent(), timeout, List.of("vvp", "-n", compiled.toAbsolutePath().toString()));
    }

    /** Runs a command in {@code dir} with a time limit, capturing stdout and stderr together. */
    public static Result run(Path dir, Duration timeout, List<String> command) {
        Path log = null;
        Process p = null;
        try {
            log = Files.createTempFile("flitkit-tool", ".log");
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            p = pb.start();
            p.getOutputStream().close();
            boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!done) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            return new Result(List.copyOf(command), done ? p.exitValue() : -1, out, !done);
        } catch (IOException e) {
            return new Result(List.copyOf(command), -1, "cannot run " + command.get(0) + ": " + e.getMessage(), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (p != null) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            return new Result(List.copyOf(command), -1, "interrupted", true);
        } finally {
            if (log != null) {
                try {
                    Files.deleteIfExists(log);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }

    private static Path workDir(List<Path> files) {
        return files.isEmpty() ? null : files.get(0).toAbsolutePath().getParent();
    }
}
