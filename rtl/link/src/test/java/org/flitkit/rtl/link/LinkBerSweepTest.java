package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Goodput and retransmission rate against the bit error rate (both directions, saturating load, cable latency 4,
 * default parameters): the table in docs/th2-link.md, "Throughput". Every flit still arrives once, in order.
 */
class LinkBerSweepTest {

    @Test
    void goodputFallsAndRetransmissionsRiseWithTheBitErrorRate() {
        double[] bers = {0, 1e-5, 1e-4, 1e-3};
        double lastGoodput = 2;
        double lastRate = -1;
        for (double ber : bers) {
            try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 51)) {
                t.waitUp(200);
                t.tb.run(20);
                t.errAB.ber(ber);
                t.errBA.ber(ber);
                int flits = 2000;
                t.a.traffic.load = 1.0;
                t.b.traffic.load = 1.0;
                t.a.traffic.budget = flits;
                t.b.traffic.budget = flits;
                long c0 = t.tb.cycle();
                t.tb.runUntil("A's flits delivered", () -> t.a.toPeer.matched() == flits, 200_000);
                long cycles = t.tb.cycle() - c0;
                t.drain(50_000);
                t.tb.finish();
                long sent = t.peek(t.dut.a.status.framesSent);
                long resent = t.peek(t.dut.a.status.retransmitted);
                double goodput = (double) flits / cycles;
                double rate = (double) resent / sent;
                System.out.printf("BER %.0e: %d flits in %d cycles (%.3f flits/cycle), %d of %d FLIT frames resent (%.1f%%), %d replays, %d CRC errors at B%n",
                        ber, flits, cycles, goodput, resent, sent, 100 * rate, t.peek(t.dut.a.status.replays), t.peek(t.dut.b.status.crcErrors));
                assertThat(t.b.toPeer.matched()).isEqualTo(flits);
                assertThat(resent).isEqualTo(t.a.watch.resent);
                assertThat(goodput).isLessThanOrEqualTo(lastGoodput);
                assertThat(rate).isGreaterThanOrEqualTo(lastRate);
                if (ber == 0) {
                    assertThat(resent).isZero();
                }
                lastGoodput = goodput;
                lastRate = rate;
            }
        }
    }
}
