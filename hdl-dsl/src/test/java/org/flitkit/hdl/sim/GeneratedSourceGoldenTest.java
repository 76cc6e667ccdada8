package org.flitkit.hdl.sim;

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
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The code generator's output is byte for byte what was recorded in {@code generated-source.sha256}: the
 * SHA-256 of each variant's source (model, fast, plain) for each design below, one dynamic test per design.
 * Restructuring the generator must not change what it generates; a deliberate change to the generated code
 * records the digests again ({@code -Dflitkit.sim.recordDigests=<file>} writes them).
 */
public class GeneratedSourceGoldenTest {
    static final String GOLDEN = "generated-source.sha256";

    /**
     * The designs compared: every module of the simulator's tests (the benchmark designs and random programs have
     * their digests in tools/benchmark, BenchmarkSourceGoldenTest).
     */
    static Map<String, Supplier<? extends Module>> designs() {
        Map<String, Supplier<? extends Module>> d = new LinkedHashMap<>();
        d.put("Stamps", ActivityEquivalenceTest.Stamps::new);
        d.put("Stamps-noCheck", () -> new ActivityEquivalenceTest.Stamps(false));
        d.put("SecondArm", ActivityEquivalenceTest.SecondArm::new);
        d.put("Offers", ActivityEquivalenceTest.Offers::new);
        d.put("Tied", ActivityEquivalenceTest.Tied::new);
        d.put("IdleBuffers", ActivityEquivalenceTest.IdleBuffers::new);
        d.put("StalledChain", ActivitySkippingTest.StalledChain::new);
        d.put("ChecksTop", () -> new ChecksTest.Top(5));
        d.put("NeverZero", ChecksTest.NeverZero::new);
        d.put("Gated", ChecksTest.Gated::new);
        d.put("Idle", ChecksTest.Idle::new);
        d.put("Decode", GeneratedCodeShapeTest.Decode::new);
        d.put("Nested", GeneratedCodeShapeTest.Nested::new);
        d.put("Chain", GeneratedCodeShapeTest.Chain::new);
        d.put("Fields", GeneratedCodeShapeTest.Fields::new);
        d.put("Crc", GeneratedCodeShapeTest.Crc::new);
        d.put("SliceSum", GeneratedCodeShapeTest.SliceSum::new);
        d.put("Shifter", GeneratedCodeShapeTest.Shifter::new);
        d.put("Counter", SimulatorBasicsTest.Counter::new);
        d.put("WideOps", SimulatorBasicsTest.WideOps::new);
        d.put("MemTop", SimulatorBasicsTest.MemTop::new);
        return d;
    }

    public static List<String> recorded(Class<?> owner, String resource) throws IOException {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            assertThat(in).as("recorded digests " + resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
    }

    @Test
    void theRecordedDigestsNameExactlyTheseDesigns() throws IOException {
        assertNamesExactly(designs(), recorded(getClass(), GOLDEN));
    }

    @TestFactory
    Stream<DynamicTest> generatedSourceIsByteIdenticalToTheRecordedDigests() throws IOException {
        return compare(designs(), recorded(getClass(), GOLDEN));
    }

    /**
     * One dynamic test per design: the digests of its generated source are the {@code golden} lines of its name.
     * With {@code -Dflitkit.sim.recordDigests=<file>} the digests of all {@code designs} are written there first.
     */
    public static Stream<DynamicTest> compare(Map<String, Supplier<? extends Module>> designs, List<String> golden)
            throws IOException {
        String record = System.getProperty("flitkit.sim.recordDigests");
        if (record != null) {
            List<String> all = new ArrayList<>();
            designs.forEach((name, top) -> all.addAll(SourceDigest.lines(name, Circuit.elaborate(top))));
            Files.write(Path.of(record), all);
        }
        System.out.println("generated source compared with the recorded digests for: " + String.join(", ", designs.keySet()));
        return designs.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            List<String> now = SourceDigest.lines(e.getKey(), Circuit.elaborate(e.getValue()));
            List<String> was = golden.stream().filter(l -> l.startsWith(e.getKey() + " ")).toList();
            assertThat(now).as("generated source of " + e.getKey()).containsExactlyElementsOf(was);
        }));
    }

    /** The {@code golden} lines name exactly {@code designs}, each with every variant, in that order. */
    public static void assertNamesExactly(Map<String, Supplier<? extends Module>> designs, List<String> golden) {
        List<String> expected = new ArrayList<>();
        for (String name : designs.keySet()) {
            for (String v : SourceDigest.VARIANTS) {
                expected.add(name + " " + v);
            }
        }
        List<String> got = golden.stream().map(l -> l.substring(0, l.lastIndexOf(' '))).toList();
        assertThat(got).containsExactlyElementsOf(expected);
    }
}
