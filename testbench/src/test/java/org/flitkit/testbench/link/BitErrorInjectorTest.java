package org.flitkit.testbench.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.junit.jupiter.api.Test;

/** Bit errors at a BER with geometric gaps, reproducible from the seed; cut and restore. */
class BitErrorInjectorTest {

    /** A wire whose mask and cut inputs are registered, so the test sees what was poked in the previous cycle. */
    static final class Probe extends Module {
        final UInt mask = input(UInt(264));
        final Bool cut = input(Bool());
        final UInt maskSeen = output(UInt(264));
        final Bool cutSeen = output(Bool());

        Probe() {
            maskSeen.assign(regNext(mask, 0));
            cutSeen.assign(regNext(cut, 0));
        }
    }

    private static List<BigInteger> run(long seed, double ber, int cycles, long[] bits) {
        try (Testbench<Probe> tb = Testbench.create(Probe::new, RunConfig.of(seed, cycles))) {
            BitErrorInjector inj = tb.add(new BitErrorInjector("err", tb.dut().mask, tb.dut().cut, ber));
            List<BigInteger> masks = new ArrayList<>();
            long[] popcount = {0};
            inj.listen((cycle, m) -> {
                masks.add(m);
                popcount[0] += m.bitCount();
            });
            tb.reset(1);
            tb.run(cycles);
            assertThat(inj.injectedBits()).isEqualTo(popcount[0]);
            assertThat(inj.injectedFrames()).isEqualTo(masks.size());
            bits[0] = inj.injectedBits();
            return masks;
        }
    }

    @Test
    void errorsArriveAtTheRequestedRateAndRepeatWithTheSeed() {
        long[] bits = new long[1];
        List<BigInteger> first = run(7, 1e-3, 20_000, bits);
        // 5,280,000 bits at 1e-3: 5280 errors expected, standard deviation about 73
        assertThat(bits[0]).isBetween(5280L - 365, 5280L + 365);
        assertThat(run(7, 1e-3, 20_000, new long[1])).isEqualTo(first);
        assertThat(run(8, 1e-3, 20_000, new long[1])).isNotEqualTo(first);
        assertThat(run(7, 0, 1000, bits)).isEmpty();
    }

    @Test
    void cutRestoreAndRateChangesReachTheInputs() {
        try (Testbench<Probe> tb = Testbench.create(Probe::new, RunConfig.of(1, 100))) {
            BitErrorInjector inj = tb.add(new BitErrorInjector("err", tb.dut().mask, tb.dut().cut, 0.5));
            tb.reset(1);
            tb.run(5);
            assertThat(tb.sim().peekBig(tb.dut().maskSeen).bitCount()).isBetween(90, 174);
            inj.ber(0);
            inj.cut();
            tb.run(2);
            assertThat(tb.sim().peekBig(tb.dut().maskSeen)).isZero();
            assertThat(tb.sim().peek(tb.dut().cutSeen)).isEqualTo(1);
            inj.restore();
            tb.run(1);
            assertThat(tb.sim().peek(tb.dut().cutSeen)).isZero();
        }
    }

    @Test
    void badArgumentsAreRefused() {
        try (Testbench<Probe> tb = Testbench.create(Probe::new, RunConfig.of(1, 100))) {
            assertThatThrownBy(() -> new BitErrorInjector("e", tb.dut().mask, null, 0.7)).hasMessageContaining("0..0.5");
            assertThatThrownBy(() -> new BitErrorInjector("e", tb.dut().mask, tb.dut().mask, 0)).hasMessageContaining("1 bit wide");
            BitErrorInjector noCut = new BitErrorInjector("e", tb.dut().mask, null, 0);
            assertThatThrownBy(noCut::cut).hasMessageContaining("no cut input");
        }
    }
}
