package org.flitkit.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.flitkit.hdl.sim.CompileStats;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every method the simulator generates for a design or benchmark of {@link Catalog#standard()}, in all three
 * variants, is at most 8,000 bytes of bytecode: HotSpot does not compile a larger method and runs it in the
 * interpreter on every call (docs/simulator.md, "Chunks follow module instances"). The build line of
 * {@code ./hdl run}, {@code sim} and {@code bench} reports the largest.
 */
class GeneratedMethodSizeTest {
    /** HotSpot's {@code HugeMethodLimit}: larger methods are not JIT-compiled (while {@code DontCompileHugeMethods} is on, the default) */
    static final int HUGE_METHOD_LIMIT = 8000;

    @TestFactory
    Stream<DynamicTest> noGeneratedMethodIsTooLargeForTheJit() {
        return CatalogSourceGoldenTest.designs().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            Simulator sim = Simulator.of(e.getValue());
            sim.compileVariants();
            CompileStats s = sim.stats();
            assertThat(s.maxMethodBytes()).as("largest generated method of %s (%s)", e.getKey(), s).isLessThanOrEqualTo(HUGE_METHOD_LIMIT);
        }));
    }
}
