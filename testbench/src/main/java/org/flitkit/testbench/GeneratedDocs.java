package org.flitkit.testbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
        String text = Files.readString(RepoFiles.find(doc), StandardCharsets.UTF_8);
        if (!extract.apply(text).equals(generated)) {
            throw new AssertionError(doc + " is stale; regenerate with: mvn -q -o compile && "
                    + "java -cp " + classpath + " " + mainClass + " --update " + doc);
        }
    }
}
