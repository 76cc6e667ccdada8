package org.flitkit.testbench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files of the repository (docs, example scripts) found from wherever a test runs: Surefire starts each
 * module's tests in that module's folder, which may sit one or two levels below the root.
 */
public final class RepoFiles {
    private RepoFiles() {
    }

    /** {@code path} (relative to the repository root) in this directory or the nearest parent that has it. */
    public static Path find(String path) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(path))) {
                return dir.resolve(path);
            }
        }
        throw new AssertionError(path + " not found in " + Path.of("").toAbsolutePath() + " or any parent");
    }
}
