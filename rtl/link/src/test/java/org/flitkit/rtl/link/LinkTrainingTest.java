package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.IdentityWord;
import org.junit.jupiter.api.Test;

/** Link training, cut and restore, identity exchange. docs/th2-link.md, "Training" and "Identity". */
class LinkTrainingTest {

    private static void assertCreditsConserved(LinkHarness t) {
        for (int v = 0; v < LinkHarness.VCS; v++) {
            assertThat(t.a.credits.receivedFromPeer[v]).as("credits for VC %d at A", v).isEqualTo(t.a.traffic.perVc[v]);
            assertThat(t.b.credits.receivedFromPeer[v]).as("credits for VC %d at B", v).isEqualTo(t.b.traffic.perVc[v]);
        }
    }

    @Test
    void cutAndRestoreTakesTheLinkDownAndBackWithNothingLost() {
        LinkParams p = LinkParams.defaults();
        try (LinkHarness t = new LinkHarness(p, 4, 4, 21)) {
            t.waitUp(200);
            long upAt = t.tb.cycle();
            t.a.traffic.budget = 2000;
            t.b.traffic.budget = 2000;
            t.tb.run(600);
            assertThat(t.peek(t.dut.a.status.neighbour) >>> 32).isEqualTo(1);
            t.errAB.cut();
            t.errBA.cut();
            long cutAt = t.tb.cycle();
            t.tb.runUntil("A and B report link down", () -> t.peek(t.dut.a.linkDown) == 1 && t.peek(t.dut.b.linkDown) == 1, 200);
            // the frames in the cable when it was cut still arrive: silence starts one latency later
            assertThat(t.tb.cycle() - cutAt).isEqualTo(4 + p.silenceTimeout());
            assertThat(t.peek(t.dut.a.status.up)).isZero();
            assertThat(t.peek(t.dut.a.status.neighbour)).as("neighbour forgotten while down").isZero();
            assertThat(t.peek(t.dut.a.txFlit.ready)).isZero();
            t.tb.run(500);
            t.errAB.restore();
            t.errBA.restore();
            t.waitUp(200);
            assertThat(t.peek(t.dut.a.linkDown)).isZero();
            t.drain(20_000);
            t.tb.finish();
            assertThat(t.a.toPeer.matched()).isEqualTo(2000);
            assertThat(t.b.toPeer.matched()).isEqualTo(2000);
            for (LinkHarness.Side s : new LinkHarness.Side[] {t.a, t.b}) {
                LinkStatus st = s.end.status;
                assertThat(t.peek(st.handshakes)).isEqualTo(2);
                assertThat(t.peek(st.linkDownEvents)).isEqualTo(1);
                assertThat(t.peek(st.protocolErrors)).isZero();
                assertThat(t.peek(st.retransmitted)).isEqualTo(s.watch.resent);
                assertThat(t.peek(st.framesSent)).isEqualTo(2000 + s.watch.resent);
            }
            // frames in flight when the cable was cut were lost and sent again after the handshake
            assertThat(t.a.watch.resent + t.b.watch.resent).isPositive();
            assertCreditsConserved(t);
            assertThat(t.peek(t.dut.b.status.neighbour)).isEqualTo(IdentityWord.of(ChipType.NRC, 0x0A01, 3));
            assertThat(upAt).isLessThan(100);
        }
    }

    @Test
    void oneWayCutTakesBothEndsDown() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 3, 9, 22)) {
            t.waitUp(200);
            t.a.traffic.budget = 500;
            t.b.traffic.budget = 500;
            t.tb.run(200);
            t.errAB.cut();
            // B hears silence and restarts training; A hears B's TRAIN frames (not heard) and goes down too
            t.tb.runUntil("A and B report link down", () -> t.peek(t.dut.a.linkDown) == 1 && t.peek(t.dut.b.linkDown) == 1, 300);
            t.tb.run(300);
            assertThat(t.peek(t.dut.a.status.up)).isZero();
            assertThat(t.peek(t.dut.b.status.up)).isZero();
            t.errAB.restore();
            t.waitUp(200);
            t.drain(20_000);
            t.tb.finish();
            assertThat(t.a.toPeer.matched()).isEqualTo(500);
            assertThat(t.b.toPeer.matched()).isEqualTo(500);
            assertThat(t.peek(t.dut.a.status.linkDownEvents)).isEqualTo(1);
            assertThat(t.peek(t.dut.b.status.linkDownEvents)).isEqualTo(1);
            assertThat(t.peek(t.dut.a.status.handshakes)).isEqualTo(2);
            assertThat(t.peek(t.dut.b.status.handshakes)).isEqualTo(2);
            assertCreditsConserved(t);
        }
    }

    @Test
    void identitiesAreLearntAtLinkUpAndFollowAChipIdChange() {
        LinkParams p = LinkParams.defaults().withIdentPeriod(128);
        try (LinkHarness t = new LinkHarness(p, 4, 4, 23)) {
            assertThat(t.peek(t.dut.a.status.neighbour)).as("unknown before link-up").isZero();
            t.waitUp(200);
            t.tb.run(20);
            assertThat(t.peek(t.dut.a.status.neighbour)).isEqualTo(IdentityWord.of(ChipType.NIC, 0x0B02, 17));
            assertThat(t.peek(t.dut.b.status.neighbour)).isEqualTo(IdentityWord.of(ChipType.NRC, 0x0A01, 3));
            // a later CHIP_ID (from the E2PROM or management) reaches the neighbour within a few cycles, even under full load
            t.a.traffic.budget = 1000;
            t.a.traffic.load = 1.0;
            t.tb.run(100);
            t.identity(t.dut.a, 1, 0x1234, 3);
            long changed = t.tb.cycle();
            t.tb.runUntil("B learns A's new chip ID", () -> t.peek(t.dut.b.status.neighbour) == IdentityWord.of(ChipType.NRC, 0x1234, 3), 50);
            // IDENT frame built in the same cycle: frame register, cable (4), neighbour register
            assertThat(t.tb.cycle() - changed).isEqualTo(1 + 4 + 1);
            t.drain(5000);
            // on an idle link, IDENT frames repeat every identPeriod cycles, at the ticks of the free-running clock
            t.tb.run(1000);
            java.util.List<Long> cycles = t.b.watch.identCycles;
            int n = cycles.size();
            assertThat(n).isGreaterThan(10);
            for (int i = n - 8; i < n; i++) {
                assertThat(cycles.get(i) - cycles.get(i - 1)).isEqualTo(p.identPeriod());
            }
        }
    }
}
