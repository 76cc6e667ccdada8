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
}
