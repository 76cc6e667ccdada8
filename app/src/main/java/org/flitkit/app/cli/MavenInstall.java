package org.flitkit.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts FlitKit's testbench module and what it needs (the parent pom, the language, the waves) into the local Maven
 * repository with {@code mvn install}, so that a project of one's own resolves them like any dependency. Offline
 * first, as {@code ./hdl} builds: that works without a network once the dependencies are cached.
 */
final class MavenInstall {
    /** Lines of Maven's output shown when the install fails. */
    static final int SHOWN_LINES = 30;

    private MavenInstall() {
    }

    /** The command line, offline or not. */
    static List<String> command(FlitKitClone clone, boolean offline) {
        List<String> cmd = new ArrayList<>(List.of("mvn", "-B", "-q"));
        if (offline) {
            cmd.add("-o");
        }
        cmd.addAll(List.of("-f", clone.root().resolve("pom.xml").toString(), "-pl", FlitKitClone.TESTBENCH_MODULE, "-am",
                "install", "-DskipTests"));
        return cmd;
    }

    /** Installs; when both tries fail, shows the end of Maven's output on {@code err} and fails with one line. */
    static void install(FlitKitClone clone, PrintWriter err) {
        if (run(command(clone, true)).exit() == 0) {
            return;
        }
        Result online = run(command(clone, false));
        if (online.exit() != 0) {
            List<String> lines = online.output().lines().toList();
            lines.subList(Math.max(0, lines.size() - SHOWN_LINES), lines.size()).forEach(err::println);
            err.flush();
            throw CliError.failure("installing FlitKit into the local Maven repository failed: "
                    + String.join(" ", command(clone, false)));
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> cmd) {
        Path log = null;
        try {
            log = Files.createTempFile("hdl-install", ".log");
            Process p;
            try {
                p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            } catch (IOException e) {
                throw CliError.failure("Maven (mvn) is needed to install FlitKit for your project (apt-get install maven): "
                        + IoErrors.reason(e));
            }
            p.getOutputStream().close();
            int exit = p.waitFor();
            return new Result(exit, Files.readString(log));
        } catch (IOException e) {
            throw CliError.failure("cannot keep Maven's output in a temporary file: " + IoErrors.reason(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliError.failure("interrupted while installing FlitKit");
        } finally {
            if (log != null) {
                try {
                    Files.deleteIfExists(log);
                } catch (IOException ignored) {
                    // a temporary file left behind
                }
            }
        }
    }
}
