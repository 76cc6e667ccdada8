package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.flitkit.formats.core.BitVector;
import org.flitkit.hdl.lib.Lfsr;
import org.junit.jupiter.api.Test;

/** Parameters and the PRBS model on their own (the cable model: fabric CableTest). docs/th2-link.md. */
class LinkPartsTest {

    @Test
    void badParametersGetClearErrors() {
        LinkParams d = LinkParams.defaults();
        assertThatThrownBy(() -> d.withReplayDepth(48)).hasMessageContaining("power of two in 2..128");
        assertThatThrownBy(() -> d.withReplayDepth(256)).hasMessageContaining("power of two in 2..128");
        assertThatThrownBy(() -> d.withReplayTimeout(4)).hasMessageContaining("replayTimeout must be 8..65535");
        assertThatThrownBy(() -> d.withSilenceTimeout(2)).hasMessageContaining("silenceTimeout");
        assertThatThrownBy(() -> d.withIdentPeriod(3)).hasMessageContaining("identPeriod");
        assertThatThrownBy(() -> d.withIdentPeriod(100)).hasMessageContaining("identPeriod must be a power of two");
        assertThatThrownBy(() -> new LinkParams(64, 128, 64, 4096, 9, 1)).hasMessageContaining("vcCount must be 1..8");
        assertThatThrownBy(() -> d.withBistSeed(0)).hasMessageContaining("non-zero 31-bit");
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
