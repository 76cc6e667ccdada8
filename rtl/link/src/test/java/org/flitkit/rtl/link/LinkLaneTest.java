package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.formats.th2.LinkFrame;
import org.junit.jupiter.api.Test;

/**
 * Per-lane training and width negotiation: dead lanes found at training, the width both ends agree on, frames
 * spread over the lanes in use (checked frame by frame by the bench's TxWatch), a lane dying on a live link.
 * docs/th2-link.md, "Lanes".
 */
class LinkLaneTest {

    private static void assertLanes(LinkHarness t, int aRx, int bRx, int width) {
        LinkStatus a = t.dut.a.status;
        LinkStatus b = t.dut.b.status;
        assertThat(t.peek(a.rxLanes)).as("lanes A receives well").isEqualTo(aRx);
        assertThat(t.peek(b.rxLanes)).as("lanes B receives well").isEqualTo(bRx);
        assertThat(t.peek(a.txLanes)).as("A sends on the lanes B receives well").isEqualTo(bRx);
        assertThat(t.peek(b.txLanes)).as("B sends on the lanes A receives well").isEqualTo(aRx);
        assertThat(t.peek(a.width)).isEqualTo(width);
        assertThat(t.peek(b.width)).isEqualTo(width);
    }

    private static void sendBothWays(LinkHarness t, int flits, long max) {
        t.a.traffic.budget = flits;
        t.b.traffic.budget = flits;
        t.drain(max);
        t.tb.finish();
        assertThat(t.a.toPeer.matched()).isEqualTo(flits);
        assertThat(t.b.toPeer.matched()).isEqualTo(flits);
    }

    @Test
    void deadLanesNarrowTheLinkToTheWidthBothDirectionsCanCarry() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 6, 51)) {
            // A -> B loses lanes 0 and 1 (6 left), B -> A loses lane 7 (7 left): both directions run on 4
            t.sim().poke(t.dut.lanesDownAB, 0b0000_0011);
            t.sim().poke(t.dut.lanesDownBA, 0b1000_0000);
            t.waitUp(300);
            assertLanes(t, 0x7F, 0xFC, 4);
            // A sends on lanes 2..5, B on lanes 0..3 (TxWatch checks every frame and that the other lanes are quiet)
            sendBothWays(t, 2000, 40_000);
            for (LinkHarness.Side s : new LinkHarness.Side[] {t.a, t.b}) {
                LinkStatus st = s.end.status;
                assertThat(t.peek(st.framesSent)).isEqualTo(2000).isEqualTo(s.watch.flitFrames);
                assertThat(t.peek(st.retransmitted)).isZero();
                assertThat(t.peek(st.crcErrors)).isZero();
                assertThat(t.peek(st.handshakes)).isEqualTo(1);
            }
        }
    }

    @Test
    void aFourLaneLinkCarriesOneFlitEveryTwoCycles() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 52)) {
            t.sim().poke(t.dut.lanesDownAB, 0b0001_0000);
            t.waitUp(300);
            assertLanes(t, 0xFF, 0xEF, 4);
            t.a.traffic.load = 1.0;
            t.a.traffic.budget = Long.MAX_VALUE;
            t.tb.run(300);
            long before = t.a.watch.flitFrames;
            t.tb.run(2000);
            assertThat(t.a.watch.flitFrames - before).isEqualTo(1000);
        }
    }

    @Test
    void oneLaneLeftStillCarriesEverythingAtBer1e3() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 3, 3, 53)) {
            t.sim().poke(t.dut.lanesDownAB, 0b1011_1111);
            t.waitUp(400);
            assertLanes(t, 0xFF, 0x40, 1);
            t.errAB.ber(1e-3);
            t.errBA.ber(1e-3);
            sendBothWays(t, 300, 60_000);
            long resent = t.peek(t.dut.a.status.retransmitted) + t.peek(t.dut.b.status.retransmitted);
            assertThat(resent).isPositive().isEqualTo(t.a.watch.resent + t.b.watch.resent);
            assertThat(t.peek(t.dut.a.status.linkDownEvents)).isZero();
        }
    }

    @Test
    void aLaneDyingOnALiveLinkTakesItDownAndItRetrainsNarrowerWithNothingLost() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 54)) {
            t.waitUp(300);
            assertLanes(t, 0xFF, 0xFF, 8);
            t.a.traffic.budget = 3000;
            t.b.traffic.budget = 3000;
            t.tb.run(500);
            t.sim().poke(t.dut.lanesDownAB, 0b0000_0001);
            t.tb.runUntil("A and B report link down", () -> t.peek(t.dut.a.linkDown) == 1 && t.peek(t.dut.b.linkDown) == 1, 1000);
            t.waitUp(600);
            assertLanes(t, 0xFF, 0xFE, 4);
            t.drain(40_000);
            t.tb.finish();
            assertThat(t.a.toPeer.matched()).isEqualTo(3000);
            assertThat(t.b.toPeer.matched()).isEqualTo(3000);
            for (LinkHarness.Side s : new LinkHarness.Side[] {t.a, t.b}) {
                LinkStatus st = s.end.status;
                assertThat(t.peek(st.handshakes)).isEqualTo(2);
                assertThat(t.peek(st.linkDownEvents)).isEqualTo(1);
                assertThat(t.peek(st.framesSent)).isEqualTo(3000 + s.watch.resent);
            }
        }
    }

    @Test
    void onALightlyLoadedLinkAStuckLaneIsFoundByReplaysThatMakeNoProgress() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 56)) {
            t.waitUp(300);
            t.a.traffic.load = 0.02;
            t.a.traffic.budget = 200;
            t.tb.run(300);
            t.sim().poke(t.dut.lanesDownAB, 0b0000_0001);
            long replays = t.peek(t.dut.a.status.replays);
            // frames with zeros on lane 0 (IDLE frames) still pass, so B never hears silence; A's replays of the
            // first flit with ones on lane 0 fail again and again
            t.tb.runUntil("A reports link down", () -> t.peek(t.dut.a.linkDown) == 1, 3000);
            assertThat(t.peek(t.dut.b.status.up)).as("B still up: not silence").isEqualTo(1);
            assertThat(t.peek(t.dut.a.status.replays) - replays).isEqualTo(LinkLayer.REPLAY_LIMIT);
            t.waitUp(600);
            assertLanes(t, 0xFF, 0xFE, 4);
            t.drain(40_000);
            t.tb.finish();
            assertThat(t.a.toPeer.matched()).isEqualTo(200);
        }
    }

    @Test
    void withNoWorkingLaneTheLinkStaysDownWithoutHangingAndComesUpWhenRepaired() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 55)) {
            t.sim().poke(t.dut.lanesDownAB, 0xFF);
            t.a.traffic.budget = 100;
            t.tb.run(3000);
            assertThat(t.peek(t.dut.a.status.up)).isZero();
            assertThat(t.peek(t.dut.b.status.up)).isZero();
            assertThat(t.peek(t.dut.a.status.handshakes)).isZero();
            assertThat(t.peek(t.dut.a.txFlit.ready)).isZero();
            // A hears B on every lane; B heard nothing, so A never learns which of its lanes work
            assertThat(t.peek(t.dut.a.status.txLanes)).isZero();
            assertThat(t.a.watch.trainingCycles).as("every cycle sampled showed training words").isEqualTo(3000);
            t.sim().poke(t.dut.lanesDownAB, 0);
            t.waitUp(300);
            assertLanes(t, 0xFF, 0xFF, 8);
            t.drain(10_000);
            t.tb.finish();
            assertThat(t.a.toPeer.matched()).isEqualTo(100);
        }
    }

    @Test
    void linkUpTakesTheWindowTwoLatenciesAndTheConfirmation() {
        for (int latency : new int[] {4, 20}) {
            try (LinkHarness t = new LinkHarness(LinkParams.defaults(), latency, latency, 57)) {
                long start = t.tb.cycle();
                t.waitUp(400);
                System.out.printf("latency %d: both ends up %d cycles after reset%n", latency, t.tb.cycle() - start);
                assertThat(t.tb.cycle() - start).isEqualTo(2L * latency + 27);
            }
        }
    }

    @Test
    void theWidthRuleAndTheTrainingWordCheck() {
        assertThat(LinkFrame.widthFor(0xFF, 0xFF)).isEqualTo(8);
        assertThat(LinkFrame.widthFor(0x7F, 0xFF)).isEqualTo(4);
        assertThat(LinkFrame.widthFor(0x0F, 0xF0)).isEqualTo(4);
        assertThat(LinkFrame.widthFor(0x07, 0xFF)).isEqualTo(2);
        assertThat(LinkFrame.widthFor(0x01, 0xFF)).isEqualTo(1);
        assertThat(LinkFrame.widthFor(0x00, 0xFF)).isZero();
        long w = LinkFrame.trainWord(5, true, 0xDB);
        assertThat(LinkFrame.trainValid(w, 5)).isTrue();
        assertThat(LinkFrame.trainValid(w, 4)).as("a word on the wrong lane").isFalse();
        for (int bit = 0; bit < LinkFrame.LANE_BITS; bit++) {
            assertThat(LinkFrame.trainValid(w ^ 1L << bit, 5)).as("bit %d flipped", bit).isFalse();
        }
        assertThat(LinkFrame.trainValid(0, 0)).as("a dead lane's zeros").isFalse();
    }
}
