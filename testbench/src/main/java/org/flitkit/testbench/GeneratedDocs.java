package org.flitkit.testbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/** For tests of generated docs: checks a committed doc file against what its generator prints now. */
public final class GeneratedDocs {

    private GeneratedDocs() {
    }

    /**
     * Fails unless the generated section of {@code doc} (a repository path, found in this
     * directory or a parent), as {@code extract} reads it, equals {@code generated}; the failure
     * says how to regenerate it with {@code mainClass} on {@code classpath}.
     */
    public static void assertUpToDate(String doc, UnaryOperator<String> extract, String generated, String classpath,
            String mainClass) throws IOException {
        String text = Files.readString(locate(doc), StandardCharsets.UTF_8);
        if (!extract.apply(text).equals(generated)) {
            throw new AssertionError(doc + " is stale; regenerate with: mvn -q -o install -DskipTests && "
                    + "java -cp " + classpath + " " + mainClass + " --update " + doc);
        }
    }

    /** The repository path {@code doc} (a file or directory), found in the working directory or a parent. */
    public static Path locate(String doc) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(doc))) {
                return dir.resolve(doc);
            }
        }
        throw new AssertionError(doc + " not found above " + Path.of("").toAbsolutePath());
    }
}
