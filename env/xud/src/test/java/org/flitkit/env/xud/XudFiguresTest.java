package org.flitkit.env.xud;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class XudFiguresTest {
    @Test
    void theWindowLayerAddsNoHardwareLatencyButLimitsOneConnectionToItsWindows() {
        XudFigures.Perf p = XudFigures.measurePerf();
        // 40 cycles of network, the 200-cycle host write of the data and CQE, the adapter's pipeline
        assertThat(p.bareLatency()).isEqualTo(244);
        assertThat(p.windowLatency()).isEqualTo(p.bareLatency());
        // bare: 2,000 messages at about one per two cycles (the receiver's data and CQE writes share one DMA port)
        assertThat(p.bareStream()).isEqualTo(4_242);
        // window layer: 32 messages per round trip of one window
        assertThat(p.windowStream()).isEqualTo(17_820);
        assertThat(XudFigures.mbPerS(p.bareStream())).isGreaterThan(4 * XudFigures.mbPerS(p.windowStream()));
    }
}
