package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Two link layers through a cable: delivery, ACK/NAK/replay, credits. docs/th2-link.md, "Tests". */
class LinkLayerTest {

    @Test
    void errorFreeRunDeliversEverythingWithoutRetransmission() {
        try (LinkBench t = new LinkBench(LinkParams.defaults(), 5, 7, 11)) {
            t.waitUp(200);
            t.a.traffic.budget = 3000;
            t.b.traffic.budget = 2000;
            t.drain(20_000);
            t.tb.finish();
            assertThat(t.a.toPeer.matched()).isEqualTo(3000);
            assertThat(t.b.toPeer.matched()).isEqualTo(2000);
            LinkStatus sa = t.dut.a.status;
            LinkStatus sb = t.dut.b.status;
            assertThat(t.peek(sa.retransmitted)).isZero();
            assertThat(t.peek(sb.retransmitted)).isZero();
            assertThat(t.peek(sa.replays)).isZero();
            assertThat(t.peek(sa.framesSent)).isEqualTo(3000);
            assertThat(t.peek(sb.framesSent)).isEqualTo(2000);
            assertThat(t.peek(sa.flitsReceived)).isEqualTo(2000);
            assertThat(t.peek(sb.flitsReceived)).isEqualTo(3000);
            assertThat(t.a.watch.flitFrames).isEqualTo(3000);
            assertThat(t.a.watch.resent).isZero();
            assertThat(t.peek(sa.handshakes)).isEqualTo(1);
            assertThat(t.peek(sb.handshakes)).isEqualTo(1);
            assertThat(t.peek(sa.linkDownEvents)).isZero();
            assertThat(t.peek(t.dut.a.linkDown)).isZero();
            assertThat(t.peek(sa.width)).isEqualTo(8);
            // only the cycles before the first frame arrived were bad: the frame register's and the cable's
            // reset values (latency + 1 cycles)
            assertThat(t.peek(sa.crcErrors)).isEqualTo(7 + 1);
            assertThat(t.peek(sb.crcErrors)).isEqualTo(5 + 1);
            for (int v = 0; v < LinkBench.VCS; v++) {
                assertThat(t.b.credits.returned[v]).isEqualTo(t.a.traffic.perVc[v]);
                assertThat(t.a.credits.receivedFromPeer[v]).as("credits for VC %d at A", v).isEqualTo(t.a.traffic.perVc[v]);
                assertThat(t.b.credits.receivedFromPeer[v]).as("credits for VC %d at B", v).isEqualTo(t.b.traffic.perVc[v]);
            }
        }
    }

    @Test
    void atBer1e3EveryFlitArrivesOnceInOrderAndCreditsAreConserved() {
        try (LinkBench t = new LinkBench(LinkParams.defaults(), 5, 7, 12)) {
            t.waitUp(200);
            t.errAB.ber(1e-3);
            t.errBA.ber(1e-3);
            t.a.traffic.budget = 1000;
            t.b.traffic.budget = 1000;
            t.a.traffic.load = 0.8;
            t.b.traffic.load = 0.8;
            long c0 = t.tb.cycle();
            t.drain(60_000);
            System.out.printf("1e-3: 1000 flits each way in %d cycles%n", t.tb.cycle() - c0);
            t.errAB.ber(0);
            t.errBA.ber(0);
            t.tb.run(300);
            t.tb.finish();
            assertThat(t.a.toPeer.matched()).isEqualTo(1000);
            assertThat(t.b.toPeer.matched()).isEqualTo(1000);
            for (LinkBench.Side s : new LinkBench.Side[] {t.a, t.b}) {
                LinkStatus st = s.end.status;
                long resent = t.peek(st.retransmitted);
                System.out.printf("%s: %d FLIT frames sent, %d retransmitted (%.1f%%), %d replays, %d CRC errors, %d bits injected toward it%n",
                        s.traffic.name(), t.peek(st.framesSent), resent, 100.0 * resent / t.peek(st.framesSent),
                        t.peek(st.replays), t.peek(st.crcErrors), (s == t.a ? t.errBA : t.errAB).injectedBits());
                assertThat(resent).isPositive().isEqualTo(s.watch.resent);
                assertThat(t.peek(st.framesSent)).isEqualTo(s.watch.flitFrames).isEqualTo(1000 + resent);
                assertThat(t.peek(st.linkDownEvents)).isZero();
                assertThat(t.peek(st.handshakes)).isEqualTo(1);
            }
            assertThat(t.errAB.injectedBits()).isGreaterThan(1000);
            for (int v = 0; v < LinkBench.VCS; v++) {
                assertThat(t.a.credits.receivedFromPeer[v]).as("credits for VC %d at A", v).isEqualTo(t.a.traffic.perVc[v]);
                assertThat(t.b.credits.receivedFromPeer[v]).as("credits for VC %d at B", v).isEqualTo(t.b.traffic.perVc[v]);
            }
        }
    }
}
