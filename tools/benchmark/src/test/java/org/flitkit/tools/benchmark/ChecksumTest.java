package org.flitkit.tools.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

class ChecksumTest {
    /** Folds a 130-bit, a 64-bit and a 1-bit input, and accumulates the fold. */
    static final class Folded extends Module {
        final UInt wide = input(UInt(130));
        final UInt word = input(UInt(64));
        final Bool bit = input(Bool());
        final UInt fold = output(UInt(64));
        final UInt sum = output(UInt(64));

        Folded() {
            UInt f = Checksum.fold(List.of(wide, word, bit));
            fold.assign(f);
            sum.assign(Checksum.accumulate(f));
        }
    }

    private static long rotl(long x, int n) {
        return Long.rotateLeft(x, n);
    }

    @Test
    void foldXorsTheSlicesOfEachSignalRotatedByItsIndex() {
        Simulator sim = Simulator.of(Folded::new);
        Folded t = (Folded) sim.circuit().top();
        BigInteger wide = BigInteger.valueOf(0x3L).shiftLeft(128)
                .or(BigInteger.valueOf(0x0123_4567_89AB_CDEFL).shiftLeft(64))
                .or(BigInteger.valueOf(0x1111_2222_3333_4444L));
        sim.poke(t.wide, wide);
        sim.poke(t.word, 0x8000_0000_0000_0001L);
        sim.poke(t.bit, 1);
        long expected = (0x3L ^ 0x0123_4567_89AB_CDEFL ^ 0x1111_2222_3333_4444L) ^ rotl(0x8000_0000_0000_0001L, 1) ^ rotl(1, 2);
        assertThat(sim.peek(t.fold)).isEqualTo(expected).isEqualTo(0x1032_6745_BA98_89AFL);
    }

    @Test
    void accumulateRotatesTheSumAndXorsTheWordInEveryCycle() {
        Simulator sim = Simulator.of(Folded::new);
        Folded t = (Folded) sim.circuit().top();
        sim.reset();
        long sum = 0;
        long[] words = {0x5L, 0xF000_0000_0000_0000L, 0x1234L};
        for (long w : words) {
            sim.poke(t.word, w);
            sim.step();
            sum = rotl(sum, 1) ^ rotl(w, 1);
        }
        assertThat(sim.peek(t.sum)).isEqualTo(sum).isEqualTo(0xC000_0000_0000_2443L);
    }

    @Test
    void badArgumentsAreRejected() {
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Module() {
            {
                Checksum.fold(List.of());
            }
        })).isInstanceOf(HdlException.class).hasMessageContaining("at least one signal");
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Module() {
            {
                Checksum.accumulate(input(UInt(32)));
            }
        })).isInstanceOf(HdlException.class).hasMessageContaining("64-bit word, got 32 bits");
    }
}
