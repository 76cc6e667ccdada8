package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Throughput: one flit per cycle each way when replayDepth >= 2 x cable latency + {@link LinkLayer#PIPELINE},
 * and window-limited (replayDepth flits per round trip) below that. docs/th2-link.md, "Throughput".
 */
class LinkThroughputTest {

    /** Flits A's switch side got in over {@code window} cycles of saturating load both ways (after warm-up). */
    private static long accepted(int depth, int latency, int window) {
        LinkParams p = LinkParams.defaults().withReplayDepth(depth);
        try (LinkHarness t = new LinkHarness(p, latency, latency, 41)) {
            t.waitUp(200);
            t.a.traffic.load = 1.0;
            t.b.traffic.load = 1.0;
            t.a.traffic.budget = Long.MAX_VALUE;
            t.b.traffic.budget = Long.MAX_VALUE;
            t.tb.run(200);
            long a0 = t.a.traffic.accepted;
            long b0 = t.b.traffic.accepted;
            long t0 = System.nanoTime();
            t.tb.run(window);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long a = t.a.traffic.accepted - a0;
            assertThat(t.b.traffic.accepted - b0).isEqualTo(a);
            System.out.printf("depth %d, latency %d: %d flits in %d cycles each way (%.4f/cycle); %.0f cycles/s for two link layers%n",
                    depth, latency, a, window, (double) a / window, window / seconds);
            assertThat(t.peek(t.dut.a.status.retransmitted)).isZero();
            return a;
        }
    }

    @Test
    void fullRateWhenTheReplayBufferCoversTheRoundTrip() {
        // 2 x 6 + 4 = 16
        assertThat(accepted(16, 6, 5000)).isEqualTo(5000);
    }

    @Test
    void windowLimitedWhenItDoesNot() {
        // 2 x 7 + 4 = 18 > 16: 16 flits per 18-cycle round trip
        long n = accepted(16, 7, 18 * 300);
        assertThat(n).isBetween(16L * 300 - 16, 16L * 300 + 16).isLessThan(18 * 300);
    }
}
