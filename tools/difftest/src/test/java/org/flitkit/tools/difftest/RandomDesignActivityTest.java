package org.flitkit.tools.difftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Random;
import java.util.SplittableRandom;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.hdl.sim.VariantAgreement;
import org.junit.jupiter.api.Test;

/**
 * Activity skipping is exact on random designs: with it off, with either variant pinned and adaptively, every
 * named signal agrees on every cycle; variants compiled in the background take over with the same values
 * (docs/simulator.md, "Flags").
 */
class RandomDesignActivityTest {
    @Test
    void randomDesignsAgreeWithAndWithoutActivitySkipping() {
        for (long seed = 300; seed < 330; seed++) {
            Program p = RandomProgram.generate(seed, RandomProgram.Shape.standard());
            VariantAgreement.agree(() -> new ProgramDesign("S", p), seed, 60);
        }
    }

    /**
     * A simulator starts before its fast and plain variants are compiled: {@code step(n)} starts their
     * compilation and runs the storing variant until they are ready, then takes them, with the values
     * single steps give.
     */
    @Test
    void variantsCompiledInTheBackgroundTakeOverWithTheSameValues() {
        // a design no other test compiles, so its variants are not in the cache
        Program p = RandomProgram.generate(20261126L, RandomProgram.Shape.standard());
        Circuit c = Circuit.elaborate(() -> new ProgramDesign("Background", p));
        Simulator runs = VariantAgreement.of(c, false);
        Simulator single = VariantAgreement.of(c, false);
        assertThat(runs.stats().variantMillis()).as("compiled before a run asked for them").isEqualTo(-1);
        int modelClasses = runs.stats().classes();
        runs.reset(2);
        single.reset(2);
        SplittableRandom r = new SplittableRandom(5);
        for (int round = 0; round < 60; round++) {
            if (round == 1) {
                // the first run started the compilation on the background thread; wait for it here
                VariantAgreement.of(c, true);
            }
            for (Bits in : c.netlist().inputs()) {
                BigInteger v = new BigInteger(in.width(), new Random(r.nextLong()));
                if (in.isSigned() && v.testBit(in.width() - 1)) {
                    v = v.subtract(BigInteger.ONE.shiftLeft(in.width()));
                }
                runs.poke(in, v);
                single.poke(in, v);
            }
            int n = 2 + r.nextInt(500);
            runs.step(n);
            for (int i = 0; i < n; i++) {
                single.step();
            }
            assertThat(VariantAgreement.runsCompiledVariants(runs)).as("round %d", round).isEqualTo(round > 0);
            for (String sig : single.signalNames()) {
                assertThat(runs.peekBig(sig)).as("round %d %s", round, sig).isEqualTo(single.peekBig(sig));
            }
        }
        assertThat(runs.stats().variantMillis()).isNotNegative();
        assertThat(runs.stats().classes()).as("the variants' classes count once compiled").isGreaterThan(modelClasses);
    }
}
