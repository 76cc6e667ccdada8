package org.flitkit.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.flitkit.testbench.RepoFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the {@code ./hdl} script rebuilds FlitKit: only when the root pom, or the pom or a main source of a module
 * the root pom lists, is newer than the last build; never for a project of one's own inside the clone. The script
 * runs for real in a small copy of a clone, with stand-ins for {@code mvn} (which records that it was called and
 * writes the classpath file) and {@code java} on the PATH.
 */
class HdlScriptTest {
    /** A moment well in the past: the last build's stamp. Files changed "since" are one minute after it. */
    private static final Instant BUILT = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path root;
    @TempDir
    Path bin;
    private Path mvnLog;

    @BeforeEach
    void aCloneWithTwoModulesAndStandIns() throws IOException {
        Files.copy(RepoFiles.find("hdl"), root.resolve("hdl"));
        Files.writeString(root.resolve("pom.xml"), """
                <project>
                  <modules>
                    <!-- a comment -->
                    <module>lib</module>
                    <module> nested/mod </module>
                    <module>app</module>
                  </modules>
                </project>
                """);
        for (String m : List.of("lib", "nested/mod", "app")) {
            write(m + "/pom.xml");
            write(m + "/src/main/java/A.java");
        }
        write("nested/mod/src/main/resources/table.txt");
        write("lib/src/test/java/ATest.java");
        mvnLog = bin.resolve("mvn.log");
        script("mvn", "echo \"$*\" >> '" + mvnLog + "'\nmkdir -p '" + root + "/app/target'\necho /cp > '" + root + "/app/target/hdl.classpath'\n");
        script("java", "echo \"java $*\"\n");
    }

    @Test
    void buildsOnFirstUseThenNotAgain() throws Exception {
        assertThat(hdl()).isEqualTo("built");
        assertThat(Files.readAllLines(mvnLog)).hasSize(1);
        assertThat(hdl()).isEqualTo("not built");
        assertThat(Files.readAllLines(mvnLog)).hasSize(1);
    }

    @Test
    void aProjectOfOnesOwnInsideTheCloneDoesNotRebuild() throws Exception {
        hdl();
        assertThat(hdlAfterChanging("demo/src/main/java/demo/MergerScenario.java")).isEqualTo("not built");
        assertThat(hdlAfterChanging("demo/pom.xml")).isEqualTo("not built");
        assertThat(hdlAfterChanging("Notes.java")).isEqualTo("not built");
        // a module's tests are not on ./hdl's classpath
        assertThat(hdlAfterChanging("lib/src/test/java/ATest.java")).isEqualTo("not built");
        // a folder named like a module but not listed
        assertThat(hdlAfterChanging("unlisted/src/main/java/A.java")).isEqualTo("not built");
    }

    @Test
    void whatTheBuildReadsDoesRebuild() throws Exception {
        hdl();
        assertThat(hdlAfterChanging("lib/src/main/java/A.java")).isEqualTo("built");
        assertThat(hdlAfterChanging("nested/mod/src/main/resources/table.txt")).isEqualTo("built");
        assertThat(hdlAfterChanging("app/pom.xml")).isEqualTo("built");
        assertThat(hdlAfterChanging("pom.xml")).isEqualTo("built");
        assertThat(Files.readAllLines(mvnLog)).hasSize(5);
    }

    /**
     * Sets every file's time to before the last build, then {@code path}'s (created if need be) to after it, and runs
     * {@code ./hdl classpath}.
     */
    private String hdlAfterChanging(String path) throws Exception {
        if (!Files.exists(root.resolve(path))) {
            write(path);
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(f, FileTime.from(BUILT.minusSeconds(60)));
            }
        }
        Files.setLastModifiedTime(root.resolve("app/target/hdl.stamp"), FileTime.from(BUILT));
        Files.setLastModifiedTime(root.resolve(path), FileTime.from(BUILT.plusSeconds(60)));
        return hdl();
    }

    /** Runs {@code ./hdl classpath}: "built" or "not built", after checking it ran the application either way. */
    private String hdl() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("hdl").toString(), "classpath");
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().remove("HDL_JAVA_OPTS");
        Path out = Files.createTempFile(bin, "out", ".txt");
        Path err = Files.createTempFile(bin, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(err)).isZero();
        assertThat(Files.readString(out)).startsWith("java ").contains(":/cp ").endsWith(" org.flitkit.app.cli.Main classpath\n");
        String e = Files.readString(err);
        assertThat(e).isIn("", "hdl: building FlitKit (mvn package)...\n");
        return e.isEmpty() ? "not built" : "built";
    }

    private void write(String path) throws IOException {
        Path f = root.resolve(path);
        Files.createDirectories(f.getParent());
        Files.writeString(f, path + "\n");
    }

    private void script(String name, String body) throws IOException {
        Path s = bin.resolve(name);
        Files.writeString(s, "#!/usr/bin/env bash\n" + body);
        Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
