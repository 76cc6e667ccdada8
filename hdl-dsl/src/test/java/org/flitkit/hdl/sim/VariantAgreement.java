package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;

/**
 * The simulator's evaluation variants agree (docs/simulator.md, "Flags"): the check of the activity-skipping tests,
 * and the simulator's test hooks (pinned variants, variants compiled now or later), for the tests of the tool
 * modules that simulate their own designs.
 */
public final class VariantAgreement {
    private VariantAgreement() {
    }

    /**
     * Simulates {@code top} with activity skipping off, with the skipping variant pinned, with the plain variant
     * pinned and adaptively, for {@code rounds} rounds of random inputs and runs; asserts every named signal and
     * everything printed is the same in all four.
     */
    public static void agree(Supplier<? extends Module> top, long seed, int rounds) {
        Circuit c = Circuit.elaborate(top);
        Simulator off = Simulator.of(c);
        off.setActivitySkipping(false);
        Simulator flagged = Simulator.of(c);
        flagged.pinVariant(false);
        Simulator plain = Simulator.of(c);
        plain.pinVariant(true);
        Simulator auto = Simulator.of(c);
        List<Simulator> all = List.of(off, flagged, plain, auto);
        StringBuilder[] printed = new StringBuilder[all.size()];
        for (int i = 0; i < all.size(); i++) {
            StringBuilder sb = new StringBuilder();
            printed[i] = sb;
            all.get(i).setPrintSink(sb::append);
            all.get(i).reset(2);
        }
        SplittableRandom r = new SplittableRandom(seed);
        List<Bits> inputs = c.netlist().inputs();
        for (int round = 0; round < rounds; round++) {
            // inputs change rarely, so most cycles leave most logic idle
            if (r.nextInt(3) == 0) {
                Bits in = inputs.isEmpty() ? null : inputs.get(r.nextInt(inputs.size()));
                if (in != null) {
                    BigInteger v = new BigInteger(in.width(), new Random(r.nextLong()));
                    if (in.isSigned() && v.testBit(in.width() - 1)) {
                        v = v.subtract(BigInteger.ONE.shiftLeft(in.width()));
                    }
                    for (Simulator s : all) {
                        s.poke(in, v);
                    }
                }
            }
            // single steps (the storing variant, as testbenches and waves use) and long runs (the fast variants, windows of 4,096)
            int n = r.nextInt(4) == 0 ? 1 + r.nextInt(9_000) : 1;
            for (Simulator s : all) {
                if (n == 1) {
                    s.step();
                } else {
                    s.step(n);
                }
            }
            for (String sig : off.signalNames()) {
                BigInteger want = off.peekBig(sig);
                for (int i = 1; i < all.size(); i++) {
                    assertThat(all.get(i).peekBig(sig)).as("seed %d round %d sim %d %s", seed, round, i, sig).isEqualTo(want);
                }
            }
        }
        for (int i = 1; i < all.size(); i++) {
            assertThat(printed[i].toString()).isEqualTo(printed[0].toString());
        }
    }

    /** A simulator whose fast and plain variants are compiled now ({@code true}) or when a run first needs them. */
    public static Simulator of(Circuit circuit, boolean compileVariantsNow) {
        return Simulator.of(circuit, compileVariantsNow);
    }

    /** Whether {@code sim}'s {@code step(n)} has both compiled variants. */
    public static boolean runsCompiledVariants(Simulator sim) {
        return sim.runsCompiledVariants();
    }
}
