package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.Component;
import org.junit.jupiter.api.Test;

/** The link BIST through the cable: error-free, and with injected bit errors. docs/th2-link.md, "BIST". */
class LinkBistTest {

    /** Pulses A's BIST start with {@code duration} frames, one every {@code interval} slots. */
    private static void start(LinkHarness t, LinkPairBoard.End e, long duration, int interval) {
        t.sim().poke(e.bist.duration, duration);
        t.sim().poke(e.bist.interval, interval);
        t.sim().poke(e.bist.start, 1);
        t.tb.run(1);
        t.sim().poke(e.bist.start, 0);
    }

    @Test
    void errorFreeBistTestsEveryFrameWhileDataContinues() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 6, 31)) {
            t.waitUp(200);
            t.tb.run(20);
            t.a.traffic.budget = 2000;
            t.b.traffic.budget = 2000;
            t.a.traffic.load = 0.9;
            start(t, t.dut.a, 600, 3);
            BistResult ra = t.dut.a.bistResult;
            BistResult rb = t.dut.b.bistResult;
            assertThat(t.peek(ra.running)).isEqualTo(1);
            t.tb.runUntil("A's BIST done", () -> t.peek(ra.done) == 1, 3000);
            t.drain(20_000);
            t.tb.finish();
            assertThat(t.peek(ra.running)).isZero();
            assertThat(t.peek(ra.framesSent)).isEqualTo(600);
            assertThat(t.a.watch.bistFrames).isEqualTo(600);
            // only A was started: B's checker locked on A's stream by itself
            assertThat(t.peek(rb.synced)).isEqualTo(1);
            assertThat(t.peek(rb.framesTested)).isEqualTo(600);
            assertThat(t.peek(rb.erroredFrames)).isZero();
            assertThat(t.peek(rb.bitErrors)).isZero();
            assertThat(t.peek(rb.firstErrorValid)).isZero();
            assertThat(t.peek(rb.resyncs)).isZero();
            assertThat(t.peek(ra.framesTested)).isZero();
            // data shared the link: all delivered, none resent
            assertThat(t.a.toPeer.matched()).isEqualTo(2000);
            assertThat(t.peek(t.dut.a.status.retransmitted)).isZero();
        }
    }

    @Test
    void stopEndsAnUnboundedRun() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 32)) {
            t.waitUp(200);
            start(t, t.dut.b, 0, 1);
            t.tb.run(500);
            // B sends BIST frames from its first frame slot after A's frames reach it (A is up): 5 of the 500
            // cycles go by first, so the stop in the 501st cycle leaves 496 frames
            BistResult rb = t.dut.b.bistResult;
            assertThat(t.peek(rb.running)).isEqualTo(1);
            t.sim().poke(t.dut.b.bist.stop, 1);
            t.tb.run(1);
            t.sim().poke(t.dut.b.bist.stop, 0);
            long sent = t.peek(rb.framesSent);
            t.tb.run(50);
            assertThat(t.peek(rb.running)).isZero();
            assertThat(t.peek(rb.done)).isEqualTo(1);
            assertThat(t.peek(rb.framesSent)).isEqualTo(sent).isEqualTo(t.b.watch.bistFrames).isEqualTo(496);
            assertThat(t.peek(t.dut.a.bistResult.framesTested)).isEqualTo(sent);
            assertThat(t.peek(t.dut.a.bistResult.erroredFrames)).isZero();
        }
    }

    /**
     * What B's checker should report, from the frames A sends and the masks the cable XORs in: the index of the
     * first BIST frame whose payload was hit, the errored frames and the bit errors.
     */
    static final class Expect extends Component {
        private final LinkHarness t;
        BigInteger mask = BigInteger.ZERO;
        long maskCycle = -1;
        long index = -1;
        long firstErrored = -1;
        long errored;
        long bitErrors;
        long nonPayloadHits;

        Expect(LinkHarness t) {
            super("bist_expect");
            this.t = t;
            t.errAB.listen((cycle, m) -> {
                mask = m;
                maskCycle = cycle;
            });
        }

        @Override
        protected void sample() {
            BitVector clean = BitVector.of(LinkFrame.BITS, sim().peekBig(t.dut.a.wireOut));
            if (LinkFrame.Type.exact(clean.get(LinkFrame.FRAME.TYPE)) != LinkFrame.Type.BIST) {
                return;
            }
            index = (clean.get(LinkFrame.FRAME.SEQ) & LinkFrame.BIST_FIRST) != 0 ? 0 : index + 1;
            if (maskCycle != cycle()) {
                return;
            }
            BigInteger payload = mask.and(BigInteger.ONE.shiftLeft(Th2.FLIT_BITS).subtract(BigInteger.ONE));
            if (mask.bitLength() > Th2.FLIT_BITS) {
                nonPayloadHits++;
            }
            if (payload.signum() != 0) {
                errored++;
                bitErrors += payload.bitCount();
                if (firstErrored < 0) {
                    firstErrored = index;
                }
            }
        }
    }

    @Test
    void injectedErrorsAreCountedAndTheFirstErroredFrameIsLocated() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 33)) {
            Expect expect = t.tb.add(new Expect(t));
            t.waitUp(200);
            start(t, t.dut.a, 3000, 1);
            // errors only once B's checker has locked on the first (clean) BIST frames
            t.tb.run(40);
            t.errAB.ber(2e-4);
            t.tb.runUntil("A's BIST done", () -> t.peek(t.dut.a.bistResult.done) == 1, 5000);
            t.errAB.ber(0);
            t.tb.run(20);
            BistResult rb = t.dut.b.bistResult;
            System.out.printf("BIST: %d frames tested, %d errored, %d bit errors, first at %d; cable hit %d frames outside the payload%n",
                    t.peek(rb.framesTested), t.peek(rb.erroredFrames), t.peek(rb.bitErrors), t.peek(rb.firstErrorFrame),
                    expect.nonPayloadHits);
            assertThat(t.peek(rb.framesTested)).isEqualTo(3000);
            assertThat(expect.errored).isGreaterThan(10);
            assertThat(t.peek(rb.erroredFrames)).isEqualTo(expect.errored);
            assertThat(t.peek(rb.bitErrors)).isEqualTo(expect.bitErrors);
            assertThat(t.peek(rb.firstErrorValid)).isEqualTo(1);
            assertThat(t.peek(rb.firstErrorFrame)).isEqualTo(expect.firstErrored).isGreaterThan(0);
            assertThat(t.peek(rb.resyncs)).isZero();
        }
    }

    /** Flips payload bit 0 of the first BIST frame of a run as it enters the cable. */
    static final class HitFirstBistFrame extends Component {
        private final LinkHarness t;
        boolean hit;

        HitFirstBistFrame(LinkHarness t) {
            super("hit_first");
            this.t = t;
        }

        @Override
        protected void drive() {
            BitVector f = BitVector.of(LinkFrame.BITS, sim().peekBig(t.dut.a.wireOut));
            boolean first = LinkFrame.Type.exact(f.get(LinkFrame.FRAME.TYPE)) == LinkFrame.Type.BIST
                    && (f.get(LinkFrame.FRAME.SEQ) & LinkFrame.BIST_FIRST) != 0;
            sim().poke(t.dut.errorAB, first ? 1 : 0);
            hit |= first;
        }
    }

    @Test
    void checkerLocksOnALaterFrameWhenTheRunsFirstFrameIsHit() {
        try (LinkHarness t = new LinkHarness(LinkParams.defaults(), 4, 4, 34)) {
            HitFirstBistFrame hit = t.tb.add(new HitFirstBistFrame(t));
            t.waitUp(200);
            start(t, t.dut.a, 300, 2);
            t.tb.runUntil("A's BIST done", () -> t.peek(t.dut.a.bistResult.done) == 1, 2000);
            t.tb.run(20);
            BistResult rb = t.dut.b.bistResult;
            assertThat(hit.hit).isTrue();
            // the first frame arrived with a bad CRC before the checker was locked: it locks on the second
            assertThat(t.peek(rb.synced)).isEqualTo(1);
            assertThat(t.peek(rb.framesTested)).isEqualTo(299);
            assertThat(t.peek(rb.erroredFrames)).isZero();
            assertThat(t.peek(rb.resyncs)).isZero();
        }
    }
}
