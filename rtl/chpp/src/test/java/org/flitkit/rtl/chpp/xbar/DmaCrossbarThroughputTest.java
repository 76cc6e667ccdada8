package org.flitkit.rtl.chpp.xbar;

import org.flitkit.rtl.chpp.XbarLoad;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Saturation throughput of the crossbar (paper section 5.4, figure 19) for a fixed seed, short window: the exact
 * number of beats 4x2 and 4x4 deliver, so any change to arbitration, buffering or VC choice shows. The sweep of the
 * paper's five configurations over a long window is the {@code chpp-xbar} figure source ({@link XbarLoad#main}).
 * docs/chpp-dma.md, "Intra-DMA crossbar".
 */
class DmaCrossbarThroughputTest {
    static final long WARMUP = 1_000;
    static final long WINDOW = 4_000;

    @Test
    void fourPortsTwoVcs() {
        XbarLoad.Result r = XbarLoad.saturation(4, 2, XbarLoad.MTU_PACKET_BEATS, WARMUP, WINDOW, XbarLoad.SEED);
        System.out.printf("4x2: %d beats in %d cycles, %.4f of peak, %.3f GB/s (payload %.3f)%n", r.beats(), WINDOW, r.perPort(),
                r.gbps(), r.payloadGbps());
        assertThat(r.beats()).isEqualTo(12561);
    }

    @Test
    void fourPortsFourVcs() {
        XbarLoad.Result r = XbarLoad.saturation(4, 4, XbarLoad.MTU_PACKET_BEATS, WARMUP, WINDOW, XbarLoad.SEED);
        System.out.printf("4x4: %d beats in %d cycles, %.4f of peak, %.3f GB/s (payload %.3f)%n", r.beats(), WINDOW, r.perPort(),
                r.gbps(), r.payloadGbps());
        assertThat(r.beats()).isEqualTo(13732);
    }
}
