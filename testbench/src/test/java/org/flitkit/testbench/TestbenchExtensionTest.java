package org.flitkit.testbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The module a failing test's rerun command names: one its reactor lists, or "." for a project of its own. */
class TestbenchExtensionTest {
    @Test
    void theRerunNamesTheModuleOnlyWhenTheReactorListsIt(@TempDir Path root) throws IOException {
        Files.writeString(root.resolve("pom.xml"), "<project><modules><module>testbench</module>\n<module> rtl/nrc </module></modules></project>");
        for (String dir : new String[] {"testbench", "rtl/nrc", "demo", "rtl/nrc-old"}) {
            Files.createDirectories(root.resolve(dir));
        }
        Files.writeString(root.resolve("demo/pom.xml"), "<project><artifactId>demo</artifactId></project>");

        assertThat(TestbenchExtension.moduleDir(root.resolve("testbench"))).isEqualTo("testbench");
        assertThat(TestbenchExtension.moduleDir(root.resolve("rtl/nrc"))).isEqualTo("rtl/nrc");
        // a project of one's own inside the clone: rerun from its own folder
        assertThat(TestbenchExtension.moduleDir(root.resolve("demo"))).isEqualTo(".");
        assertThat(TestbenchExtension.moduleDir(root.resolve("rtl/nrc-old"))).isEqualTo(".");
    }
}
