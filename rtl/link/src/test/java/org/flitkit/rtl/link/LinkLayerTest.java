package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.testbench.Component;
import org.junit.jupiter.api.Test;

/** Two link layers through a cable: delivery, ACK/NAK/replay, credits. docs/th2-link.md, "Tests". */
class LinkLayerTest {

    @Test
    void errorFreeRunDeliversEverythingWithoutRetransmission() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 5, 7, 11)) {
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
            assertThat(t.peek(sa.protocolErrors)).isZero();
            assertThat(t.peek(sb.protocolErrors)).isZero();
            assertThat(t.peek(t.dut.a.linkDown)).isZero();
            assertThat(t.peek(sa.width)).isEqualTo(8);
            // training words are not frames, and after link-up the receiver takes frames only from the first
            // CRC-good one: an error-free cable shows no CRC error at all
            assertThat(t.peek(sa.crcErrors)).isZero();
            assertThat(t.peek(sb.crcErrors)).isZero();
            for (int v = 0; v < LinkHarness.VCS; v++) {
                assertThat(t.b.credits.returned[v]).isEqualTo(t.a.traffic.perVc[v]);
                assertThat(t.a.credits.receivedFromPeer[v]).as("credits for VC %d at A", v).isEqualTo(t.a.traffic.perVc[v]);
                assertThat(t.b.credits.receivedFromPeer[v]).as("credits for VC %d at B", v).isEqualTo(t.b.traffic.perVc[v]);
            }
        }
    }

    @Test
    void atBer1e3EveryFlitArrivesOnceInOrderAndCreditsAreConserved() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 5, 7, 12)) {
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
            for (LinkHarness.Side s : new LinkHarness.Side[] {t.a, t.b}) {
                LinkStatus st = s.end.status;
                long resent = t.peek(st.retransmitted);
                System.out.printf("%s: %d FLIT frames sent, %d retransmitted (%.1f%%), %d replays, %d CRC errors, %d bits injected toward it%n",
                        s.traffic.name(), t.peek(st.framesSent), resent, 100.0 * resent / t.peek(st.framesSent),
                        t.peek(st.replays), t.peek(st.crcErrors), (s == t.a ? t.errBA : t.errAB).injectedBits());
                assertThat(resent).isPositive().isEqualTo(s.watch.resent);
                assertThat(t.peek(st.framesSent)).isEqualTo(s.watch.flitFrames).isEqualTo(1000 + resent);
                assertThat(t.peek(st.linkDownEvents)).isZero();
                assertThat(t.peek(st.protocolErrors)).isZero();
                assertThat(t.peek(st.handshakes)).isEqualTo(1);
            }
            assertThat(t.errAB.injectedBits()).isGreaterThan(1000);
            for (int v = 0; v < LinkHarness.VCS; v++) {
                assertThat(t.a.credits.receivedFromPeer[v]).as("credits for VC %d at A", v).isEqualTo(t.a.traffic.perVc[v]);
                assertThat(t.b.credits.receivedFromPeer[v]).as("credits for VC %d at B", v).isEqualTo(t.b.traffic.perVc[v]);
            }
        }
    }

    /** Hits one FLIT frame A sends (by sequence number) and, optionally, the first NAK frame B sends back. */
    static final class Hits extends Component {
        private final LinkHarness t;
        private final int flitSeq;
        private final boolean nak;
        long flitHitAt = -1;
        long nakHitAt = -1;

        Hits(LinkHarness t, int flitSeq, boolean nak) {
            super("hits");
            this.t = t;
            this.flitSeq = flitSeq;
            this.nak = nak;
        }

        @Override
        protected void drive() {
            BitVector fa = BitVector.of(LinkFrame.BITS, sim().peekBig(t.dut.a.wireOut));
            boolean hitA = flitHitAt < 0 && LinkFrame.Type.exact(fa.get(LinkFrame.FRAME.TYPE)) == LinkFrame.Type.FLIT
                    && fa.get(LinkFrame.FRAME.SEQ) == flitSeq;
            sim().poke(t.dut.errorAB, hitA ? 1 : 0);
            if (hitA) {
                flitHitAt = cycle();
            }
            BitVector fb = BitVector.of(LinkFrame.BITS, sim().peekBig(t.dut.b.wireOut));
            boolean hitB = nak && flitHitAt >= 0 && nakHitAt < 0 && fb.get(LinkFrame.FRAME.NAK) == 1;
            sim().poke(t.dut.errorBA, hitB ? 1 : 0);
            if (hitB) {
                nakHitAt = cycle();
            }
        }
    }

    @Test
    void aNakRecoversOneLostFrameWithinARoundTrip() {
        LinkParams p = LinkParams.defaults().withReplayTimeout(4096);
        try (LinkHarness t = new LinkHarness(p, 4, 4, 13)) {
            Hits hits = t.tb.add(new Hits(t, 4, false));
            t.waitUp(200);
            t.tb.run(10);
            t.a.traffic.load = 1.0;
            t.a.traffic.budget = 10;
            t.tb.runUntil("10 flits delivered", () -> t.a.toPeer.matched() == 10, 200);
            assertThat(hits.flitHitAt).isPositive();
            // hit at the cable entry, NAK back, replay from seq 4: well within the 4096-cycle timeout
            assertThat(t.tb.cycle() - hits.flitHitAt).isLessThan(40);
            t.tb.run(50);
            t.tb.finish();
            assertThat(t.peek(t.dut.a.status.replays)).isEqualTo(1);
            // all 10 were sent back to back before the NAK came back: 4..9 are resent
            assertThat(t.peek(t.dut.a.status.retransmitted)).isEqualTo(6).isEqualTo(t.a.watch.resent);
        }
    }

    @Test
    void theReplayTimeoutRecoversALostNak() {
        LinkParams p = LinkParams.defaults().withReplayTimeout(200);
        try (LinkHarness t = new LinkHarness(p, 4, 4, 14)) {
            // the last flit of a burst is hit (no later frame shows a gap) and so is the NAK it causes
            Hits hits = t.tb.add(new Hits(t, 9, true));
            t.waitUp(200);
            t.tb.run(10);
            t.a.traffic.load = 1.0;
            t.a.traffic.budget = 10;
            t.tb.runUntil("10 flits delivered", () -> t.a.toPeer.matched() == 10, 1000);
            assertThat(hits.nakHitAt).isPositive();
            assertThat(t.tb.cycle() - hits.flitHitAt).isBetween(200L, 240L);
            t.tb.run(50);
            t.tb.finish();
            assertThat(t.peek(t.dut.a.status.replays)).isEqualTo(1);
            assertThat(t.peek(t.dut.a.status.retransmitted)).isEqualTo(1).isEqualTo(t.a.watch.resent);
        }
    }

    /** Hits the first IDLE frame A sends after FLIT frame {@code afterSeq}. */
    static final class HitIdle extends Component {
        private final LinkHarness t;
        private final int afterSeq;
        private boolean armed;
        long hitAt = -1;

        HitIdle(LinkHarness t, int afterSeq) {
            super("hit_idle");
            this.t = t;
            this.afterSeq = afterSeq;
        }

        @Override
        protected void drive() {
            BitVector f = BitVector.of(LinkFrame.BITS, sim().peekBig(t.dut.a.wireOut));
            LinkFrame.Type type = LinkFrame.Type.exact(f.get(LinkFrame.FRAME.TYPE));
            armed |= type == LinkFrame.Type.FLIT && f.get(LinkFrame.FRAME.SEQ) == afterSeq;
            boolean hit = armed && hitAt < 0 && type == LinkFrame.Type.IDLE;
            sim().poke(t.dut.errorAB, hit ? 1 : 0);
            if (hit) {
                hitAt = cycle();
            }
        }
    }

    @Test
    void aHitFrameWithoutAFlitCostsOneReplayAndItsDuplicatesAreDroppedSilently() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 15)) {
            HitIdle hit = t.tb.add(new HitIdle(t, 3));
            t.waitUp(200);
            t.tb.run(10);
            t.a.traffic.load = 0.5;
            t.a.traffic.budget = 40;
            t.drain(2000);
            t.tb.finish();
            assertThat(hit.hitAt).isPositive();
            assertThat(t.a.toPeer.matched()).isEqualTo(40);
            // the NAK for the hit IDLE frame makes A resend what B already had: B drops those without a new NAK
            assertThat(t.peek(t.dut.a.status.replays)).isEqualTo(1);
            assertThat(t.peek(t.dut.a.status.retransmitted)).isPositive().isEqualTo(t.a.watch.resent);
            assertThat(t.peek(t.dut.b.status.flitsReceived)).isEqualTo(40);
        }
    }
}
