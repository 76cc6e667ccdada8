package org.flitkit.tools.benchmark;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.sim.GeneratedSourceGoldenTest;
import org.flitkit.tools.difftest.Program;
import org.flitkit.tools.difftest.ProgramDesign;
import org.flitkit.tools.difftest.RandomProgram;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The simulator's generated source for the relay chain and 30 random programs is byte for byte what was recorded in
 * {@code generated-source.sha256} (docs/simulator.md): the same check as the language's GeneratedSourceGoldenTest
 * for its own designs, the first dynamic test checking the file names exactly these designs.
 */
class BenchmarkSourceGoldenTest {
    static final String GOLDEN = "generated-source.sha256";

    static Map<String, Supplier<? extends Module>> designs() {
        Map<String, Supplier<? extends Module>> d = new LinkedHashMap<>();
        d.put("relay-chain-96x20", () -> new RelayChain(96, 20));
        d.put("relay-chain-1000x20", () -> new RelayChain(1000, 20));
        for (long seed = 300; seed < 330; seed++) {
            Program p = RandomProgram.generate(seed, RandomProgram.Shape.standard());
            d.put("random-" + seed, () -> new ProgramDesign("S", p));
        }
        return d;
    }

    @TestFactory
    Stream<DynamicTest> generatedSourceIsByteIdenticalToTheRecordedDigests() throws IOException {
        List<String> golden = GeneratedSourceGoldenTest.recorded(getClass(), GOLDEN);
        DynamicTest names = DynamicTest.dynamicTest("the recorded digests name exactly these designs",
                () -> GeneratedSourceGoldenTest.assertNamesExactly(designs(), golden));
        return Stream.concat(Stream.of(names), GeneratedSourceGoldenTest.compare(designs(), golden));
    }
}
