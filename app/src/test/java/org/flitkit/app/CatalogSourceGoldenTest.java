package org.flitkit.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.sim.SourceDigest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The simulator's generated source for every design and benchmark of {@link Catalog#standard()} is byte for byte
 * what was recorded in {@code catalog-source.sha256} (SHA-256 per variant: model, fast, plain), one dynamic test
 * per design, named {@code design:NAME} or {@code benchmark:NAME}. A restructured code generator must generate
 * the same source; a deliberate change to the generated code records the digests again
 * ({@code -Dflitkit.sim.recordDigests=<file>} writes them).
 */
class CatalogSourceGoldenTest {
    private static final String GOLDEN = "catalog-source.sha256";

    /** Every design and benchmark of the standard catalog, named {@code design:NAME} and {@code benchmark:NAME}. */
    static Map<String, Supplier<? extends Module>> designs() {
        Map<String, Supplier<? extends Module>> d = new LinkedHashMap<>();
        Catalog c = Catalog.standard();
        c.designs().forEach(e -> d.put("design:" + e.name(), e.top()));
        c.benchmarks().forEach(e -> d.put("benchmark:" + e.name(), e.top()));
        return d;
    }

    private static List<String> recorded() throws IOException {
        try (InputStream in = CatalogSourceGoldenTest.class.getResourceAsStream(GOLDEN)) {
            assertThat(in).as("recorded digests " + GOLDEN).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
    }

    @Test
    void theRecordedDigestsNameEveryCatalogDesign() throws IOException {
        List<String> expected = new ArrayList<>();
        for (String name : designs().keySet()) {
            for (String v : SourceDigest.VARIANTS) {
                expected.add(name + " " + v);
            }
        }
        assertThat(recorded().stream().map(l -> l.substring(0, l.lastIndexOf(' '))).toList()).containsExactlyElementsOf(expected);
    }

    @TestFactory
    Stream<DynamicTest> generatedSourceIsByteIdenticalToTheRecordedDigests() throws IOException {
        List<String> golden = recorded();
        String record = System.getProperty("flitkit.sim.recordDigests");
        if (record != null) {
            List<String> all = new ArrayList<>();
            designs().forEach((name, top) -> all.addAll(SourceDigest.lines(name, Circuit.elaborate(top))));
            Files.write(Path.of(record), all);
        }
        System.out.println("generated source compared with the recorded digests for: " + String.join(", ", designs().keySet()));
        return designs().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            List<String> now = SourceDigest.lines(e.getKey(), Circuit.elaborate(e.getValue()));
            List<String> was = golden.stream().filter(l -> l.startsWith(e.getKey() + " ")).toList();
            assertThat(now).as("generated source of " + e.getKey()).containsExactlyElementsOf(was);
        }));
    }
}
