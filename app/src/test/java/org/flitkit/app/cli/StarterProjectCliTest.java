package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.math.BigInteger;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.flitkit.testbench.RepoFiles;
import org.flitkit.testbench.RunConfig;
import org.flitkit.waves.VcdReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * {@code hdl new} and {@code hdl run --class}: the starter project is written, its sources compile against
 * FlitKit's classpath (as Maven would against the installed artifacts), its JUnit tests pass, and its scenario runs
 * from {@code hdl run --class} with waves. No {@code mvn install} here: {@code --no-install}.
 */
class StarterProjectCliTest {
    @TempDir
    static Path work;
    static Path project;
    static Path classes;
    static HdlCliTest.Run created;

    @BeforeAll
    static void createTheProjectAndCompileIt() throws IOException {
        project = work.resolve("my-chip");
        created = HdlCliTest.hdl("new", project.toString(), "--no-install");
        classes = work.resolve("classes");
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path")));
        try (Stream<Path> files = Files.walk(project.resolve("src"))) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, null, diagnostics, args.toArray(new String[0]));
        assertThat(rc).as("javac: %s", diagnostics).isZero();
    }

    @Test
    void newWritesTheProjectAndSaysWhatToRunNext() {
        assertThat(created.exit()).as(created.err()).isZero();
        // Surefire runs in app/, which the script is not below: its full path
        String hdl = RepoFiles.find("hdl").toAbsolutePath().toString();
        assertThat(created.outLines()).containsExactly(
                "created " + project + " (package mychip, on FlitKit " + rootVersion() + "):",
                "  " + project.resolve("pom.xml"),
                "  " + project.resolve("src/main/java/mychip/Merger.java"),
                "  " + project.resolve("src/main/java/mychip/MergerScenario.java"),
                "  " + project.resolve("src/test/java/mychip/MergerTest.java"),
                "  " + project.resolve(".gitignore"),
                "next:",
                "  cd " + project + " && mvn -q test",
                "  " + hdl + " run --class mychip.MergerScenario --classpath " + project.resolve("target/classes")
                        + " --vcd " + project.resolve("merger.vcd"));
        assertThat(created.err()).isEmpty();
    }

    @Test
    void thePomInheritsFlitKitsParentAtTheRootPomsVersionAndDependsOnTheTestbench() throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(project.resolve("pom.xml").toFile());
        var xpath = javax.xml.xpath.XPathFactory.newInstance().newXPath();
        assertThat(xpath.evaluate("/project/parent/groupId", pom)).isEqualTo("org.flitkit");
        assertThat(xpath.evaluate("/project/parent/artifactId", pom)).isEqualTo("flitkit-parent");
        assertThat(xpath.evaluate("/project/parent/version", pom)).isEqualTo(rootVersion());
        assertThat(xpath.evaluate("/project/groupId", pom)).isEqualTo("mychip");
        assertThat(xpath.evaluate("/project/artifactId", pom)).isEqualTo("my-chip");
        assertThat(xpath.evaluate("count(/project/dependencies/dependency)", pom)).isEqualTo("1");
        assertThat(xpath.evaluate("/project/dependencies/dependency/artifactId", pom)).isEqualTo("testbench");
        assertThat(Files.readString(project.resolve("pom.xml"))).doesNotContain("{{");
    }

    @Test
    void theProjectsJUnitTestsPass() throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> test = Class.forName("mychip.MergerTest", true, loader);
            var ctor = test.getDeclaredConstructor();
            ctor.setAccessible(true);
            List<String> ran = new ArrayList<>();
            for (Method m : test.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Test.class)) {
                    m.setAccessible(true);
                    m.invoke(ctor.newInstance(), RunConfig.of(3, RunConfig.DEFAULT_CYCLES));
                    ran.add(m.getName());
                }
            }
            assertThat(ran).containsExactlyInAnyOrder("randomTrafficArrivesOnceUnchangedAndInOrder", "busyInputsTakeTurns");
        }
    }

    @Test
    void runClassRunsTheScenarioWithWavesAndASaveFile(@TempDir Path dir) {
        Path vcd = dir.resolve("merger.vcd");
        HdlCliTest.Run r = HdlCliTest.hdl("run", "--class", "mychip.MergerScenario", "--classpath", classes.toString(),
                "--cycles", "3000", "--seed", "5", "--vcd", vcd.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("waves: " + vcd, "  view: gtkwave " + vcd + " " + dir.resolve("merger.gtkw"));
        Matcher pass = Pattern.compile("PASS mychip\\.MergerScenario seed=5 cycles=(\\d+) words_a=(\\d+) words_b=(\\d+) "
                + "time=\\d+\\.\\d\\ds \\([\\d,]+ cycles/s\\)").matcher(r.lastLine());
        assertThat(pass.matches()).as(r.lastLine()).isTrue();
        // 2 reset cycles, 3000 of stimulus, 6 draining the FIFO: the same words for the same seed, every time
        assertThat(pass.group(1)).isEqualTo("3008");
        assertThat(pass.group(2)).isEqualTo("1341");
        assertThat(pass.group(3)).isEqualTo("1060");

        // the design's own count in the dump agrees with the scoreboards
        VcdReader dump = VcdReader.read(vcd);
        assertThat(dump.signal("merger.sent").valueAt(dump.endTime())).isEqualTo(BigInteger.valueOf(1341 + 1060));
        assertThat(dir.resolve("merger.gtkw")).content().contains("merger.out_bits[16:0]", "merger.sent[31:0]");
    }

    @Test
    void runClassErrorsAreOneLineWithExitTwo() {
        String cp = classes.toString();
        assertThat(error("run", "--class", "mychip.Nope", "--classpath", cp))
                .isEqualTo("hdl: class mychip.Nope not found on the classpath (" + cp + ")");
        assertThat(error("run", "--class", "mychip.Merger", "--classpath", cp))
                .isEqualTo("hdl: mychip.Merger is not a scenario (it needs a public static ScenarioResult run(RunConfig) method,"
                        + " or to implement org.flitkit.testbench.Scenario)");
        assertThat(error("run", "flit-loopback", "--class", "mychip.MergerScenario", "--classpath", cp))
                .isEqualTo("hdl: give either a testbench name or --class, not both");
        assertThat(error("run")).isEqualTo("hdl: give a testbench name from 'hdl list' or --class CLASS");
    }

    @Test
    void aClassScenarioHasNoOptionsOfItsOwn() {
        HdlCliTest.Run r = HdlCliTest.hdl("run", "--class", "mychip.MergerScenario", "--classpath", classes.toString(), "--loss", "0.1");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines()).containsExactly(
                "hdl: testbench mychip.MergerScenario has no option --loss (a --class scenario takes only the options of 'hdl run')",
                "Try 'hdl run --help' for more information.");
    }

    @Test
    void newRefusesABadNameOrPackageAndAFolderInUse() throws IOException {
        assertThat(error("new", work.resolve("9lives").toString(), "--no-install"))
                .isEqualTo("hdl: project name '9lives' must be a letter followed by letters, digits, '-' or '_'");
        assertThat(error("new", work.resolve("my chip").toString(), "--no-install"))
                .isEqualTo("hdl: project name 'my chip' must be a letter followed by letters, digits, '-' or '_'");
        assertThat(error("new", work.resolve("Class").toString(), "--no-install"))
                .isEqualTo("hdl: project name 'Class' gives no Java package ('class' is a reserved word); give one with --package");
        assertThat(error("new", work.resolve("ok").toString(), "--package", "my..chip", "--no-install"))
                .isEqualTo("hdl: package 'my..chip' is not a Java package name (dot-separated identifiers, none a reserved word)");
        assertThat(error("new", work.resolve("ok").toString(), "--package", "my.new", "--no-install"))
                .isEqualTo("hdl: package 'my.new' is not a Java package name (dot-separated identifiers, none a reserved word)");
        assertThat(work.resolve("9lives")).doesNotExist();
        assertThat(work.resolve("ok")).doesNotExist();

        // the project made above is in use now: nothing of it is overwritten
        String design = Files.readString(project.resolve("src/main/java/mychip/Merger.java"));
        Files.writeString(project.resolve("src/main/java/mychip/Merger.java"), "// mine");
        try {
            assertThat(error("new", project.toString(), "--no-install"))
                    .isEqualTo("hdl: " + project + " exists and is not empty; give a new folder");
            assertThat(project.resolve("src/main/java/mychip/Merger.java")).hasContent("// mine");
        } finally {
            Files.writeString(project.resolve("src/main/java/mychip/Merger.java"), design);
        }
        Path file = Files.writeString(work.resolve("a-file"), "x");
        assertThat(error("new", file.toString(), "--no-install")).isEqualTo("hdl: " + file + " exists and is not a folder");
    }

    @Test
    void anEmptyFolderAndAnExplicitPackageAreFine() throws IOException {
        Path empty = Files.createDirectories(work.resolve("empty"));
        HdlCliTest.Run r = HdlCliTest.hdl("new", empty.toString(), "--package", "org.example.chip", "--no-install");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.outLines().get(0)).isEqualTo("created " + empty + " (package org.example.chip, on FlitKit " + rootVersion() + "):");
        assertThat(empty.resolve("src/main/java/org/example/chip/MergerScenario.java")).content()
                .startsWith("package org.example.chip;\n")
                .contains("{@code " + RepoFiles.find("hdl").toAbsolutePath() + " run --class org.example.chip.MergerScenario --classpath target/classes");
    }

    @Test
    void theInstallIsOfflineFirstAndOnlyOfWhatTheTestbenchNeeds() {
        FlitKitClone clone = FlitKitClone.of(RepoFiles.find("hdl").getParent());
        String pom = clone.root().resolve("pom.xml").toString();
        assertThat(MavenInstall.command(clone, true))
                .containsExactly("mvn", "-B", "-q", "-o", "-f", pom, "-pl", "testbench", "-am", "install", "-DskipTests");
        assertThat(MavenInstall.command(clone, false))
                .containsExactly("mvn", "-B", "-q", "-f", pom, "-pl", "testbench", "-am", "install", "-DskipTests");
    }

    /** Runs {@code hdl ARGS}, checks exit 2 and one line on stderr, returns it. */
    private static String error(String... args) {
        HdlCliTest.Run r = HdlCliTest.hdl(args);
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err().lines()).as(r.err()).hasSize(1);
        assertThat(r.out()).isEmpty();
        return r.err().strip();
    }

    /** The version in the root pom, read here on its own: the first {@code <version>} after the parent's artifactId. */
    private static String rootVersion() {
        try {
            String pom = Files.readString(RepoFiles.find("hdl").resolveSibling("pom.xml"));
            Matcher m = Pattern.compile("<artifactId>flitkit-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
            assertThat(m.find()).isTrue();
            return m.group(1);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
