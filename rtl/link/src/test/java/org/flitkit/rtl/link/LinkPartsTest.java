package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.flitkit.formats.core.BitVector;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.hdl.lib.Lfsr;
import org.junit.jupiter.api.Test;

/** Parameters, the cable model and the PRBS model on their own. docs/th2-link.md. */
class LinkPartsTest {

    @Test
    void badParametersGetClearErrors() {
        LinkParams d = LinkParams.defaults();
        assertThatThrownBy(() -> d.withReplayDepth(48)).hasMessageContaining("power of two in 2..128");
        assertThatThrownBy(() -> d.withReplayDepth(256)).hasMessageContaining("power of two in 2..128");
        assertThatThrownBy(() -> d.withReplayTimeout(4)).hasMessageContaining("replayTimeout must be 8..65535");
        assertThatThrownBy(() -> d.withSilenceTimeout(2)).hasMessageContaining("silenceTimeout");
        assertThatThrownBy(() -> d.withIdentPeriod(3)).hasMessageContaining("identPeriod");
        assertThatThrownBy(() -> new LinkParams(64, 128, 64, 4096, 9, 1)).hasMessageContaining("vcCount must be 1..8");
        assertThatThrownBy(() -> d.withBistSeed(0)).hasMessageContaining("non-zero 31-bit");
        assertThatThrownBy(() -> Circuit.elaborate(() -> new LinkCable(0, 3))).hasMessageContaining("latency must be 1..4096");
    }

    @Test
    void cableDelaysEachDirectionXorsTheMaskAndCutsToZeros() {
        Simulator sim = Simulator.of(() -> new LinkCable(16, 3, 5));
        LinkCable c = (LinkCable) sim.circuit().top();
        sim.reset(1);
        long[] ab = new long[12];
        long[] ba = new long[12];
        for (int t = 0; t < 12; t++) {
            sim.poke(c.aTx, 0x100 + t);
            sim.poke(c.bTx, 0x200 + t);
            sim.poke(c.errorAB, t == 2 ? 0x8001 : 0);
            sim.poke(c.cutBA, t == 4);
            ab[t] = sim.peek(c.bRx);
            ba[t] = sim.peek(c.aRx);
            sim.step();
        }
        assertThat(ab[3]).isEqualTo(0x100);
        assertThat(ab[5]).isEqualTo((0x102) ^ 0x8001);
        assertThat(ab[6]).isEqualTo(0x103);
        assertThat(ba[5]).isEqualTo(0x200);
        assertThat(ba[9]).isZero();
        assertThat(ba[10]).isEqualTo(0x205);
    }

    @Test
    void prbsStateIsTheFramesLastBitsAndFollowsTheLfsr() {
        long s = 0x1234567;
        BitVector p = Prbs31.payload(s);
        long x = s;
        for (int k = 0; k < Prbs31.FRAME_BITS; k++) {
            x = Lfsr.nextFibonacci(31, x);
            assertThat(p.bit(k)).isEqualTo((x & 1) == 1);
        }
        assertThat(Prbs31.stateAfter(p)).isEqualTo(x).isEqualTo(Prbs31.next(s));
        assertThat(p.toBigInteger()).isNotEqualTo(BigInteger.ZERO);
    }
}
