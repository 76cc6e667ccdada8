package org.flitkit.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.lang.model.SourceVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hdl new NAME [--package P]}: a Maven project of one's own in folder NAME, from the {@link Starter}
 * templates: a design, a scenario with drivers, monitors and scoreboards, and a JUnit test, on FlitKit's artifacts,
 * which it first installs into the local Maven repository ({@link MavenInstall}).
 */
@Command(name = "new", description = "Create a Maven project of your own in folder NAME: a design (two streams merged "
        + "round-robin into a FIFO), its random scenario and a JUnit test. Installs FlitKit into the local Maven "
        + "repository first, so that 'cd NAME && mvn test' finds it.")
final class NewCommand implements Callable<Integer> {
    /** A project folder name, which is also the artifactId. */
    static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "The project's folder (created; an existing one must be "
            + "empty). Its last part names the project: a letter, then letters, digits, '-' or '_'.")
    Path dir;

    @Option(names = "--package", paramLabel = "P", description = "Java package of the project's classes, also its groupId "
            + "(default: NAME in lower case without '-' and '_').")
    String pkg;

    @Option(names = "--no-install", description = "Do not run 'mvn install' of FlitKit: its artifacts of this version are in "
            + "the local Maven repository already.")
    boolean noInstall;

    @Override
    public Integer call() {
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        if (!NAME.matcher(name).matches()) {
            throw CliError.usage("project name '" + name + "' must be a letter followed by letters, digits, '-' or '_'");
        }
        String p = pkg != null ? pkg : defaultPackage(name);
        checkPackage(p);
        checkEmpty(dir);

        FlitKitClone flitkit = FlitKitClone.ofThisApplication();
        PrintWriter out = spec.commandLine().getOut();
        if (!noInstall) {
            out.println("installing " + flitkit.groupId() + ":" + flitkit.testbenchArtifactId() + ":" + flitkit.version()
                    + " and what it needs into the local Maven repository (mvn install)...");
            out.flush();
            MavenInstall.install(flitkit, spec.commandLine().getErr());
        }
        List<Path> files = new Starter(name, p, flitkit).write(dir);
        out.println("created " + dir + " (package " + p + ", on FlitKit " + flitkit.version() + "):");
        files.forEach(f -> out.println("  " + f));
        out.println("next:");
        out.println("  cd " + dir + " && mvn -q test");
        out.println("  " + hdlCommand(flitkit.root().resolve("hdl")) + " run --class " + p + ".MergerScenario --classpath "
                + dir.resolve("target/classes") + " --vcd " + dir.resolve("merger.vcd"));
        out.flush();
        return 0;
    }

    /** The script as the user calls it from here: {@code ./hdl} in the clone, a relative path below it, else absolute. */
    static String hdlCommand(Path script) {
        Path here = Path.of("").toAbsolutePath();
        Path abs = script.toAbsolutePath();
        if (!abs.startsWith(here)) {
            return abs.toString();
        }
        Path rel = here.relativize(abs);
        return rel.getParent() == null ? "./" + rel : rel.toString();
    }

    /** The project name as a package: lower case, without the '-' and '_' that packages avoid. */
    static String defaultPackage(String name) {
        String p = name.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
        if (!SourceVersion.isName(p)) {
            throw CliError.usage("project name '" + name + "' gives no Java package ('" + p + "' is a reserved word); "
                    + "give one with --package");
        }
        return p;
    }

    private static void checkPackage(String p) {
        if (!SourceVersion.isName(p)) {
            throw CliError.usage("package '" + p + "' is not a Java package name (dot-separated identifiers, none a reserved word)");
        }
    }

    private static void checkEmpty(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        if (!Files.isDirectory(dir)) {
            throw CliError.usage(dir + " exists and is not a folder");
        }
        try (Stream<Path> entries = Files.list(dir)) {
            if (entries.findAny().isPresent()) {
                throw CliError.usage(dir + " exists and is not empty; give a new folder");
            }
        } catch (IOException e) {
            throw CliError.usage("cannot read " + dir + ": " + IoErrors.reason(e));
        }
    }
}
