package org.flitkit.rtl.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ChppCable}: parameter errors; a GET VC that flows past a blocked data VC (and GETs stuck behind a blocked
 * PUT when they share it); the credit loop's exact rate, depth / (2 latency + 2) beats a cycle; random packets in
 * order per VC under random backpressure. docs/chpp-network.md, "Tests".
 */
@ExtendWith(TestbenchExtension.class)
class ChppCableTest {
    /**
     * Queues packet {@code id} on {@code s}: {@code beats} beats of value id * 1000 + i, last on the final one;
     * returns (value, last) of each.
     */
    static List<long[]> packet(BeatSource s, long id, int beats) {
        List<long[]> queued = new ArrayList<>();
        for (int i = 0; i < beats; i++) {
            long[] b = {id * 1000 + i, i == beats - 1 ? 1 : 0};
            s.beat(BigInteger.valueOf(b[0]), b[1] != 0);
            queued.add(b);
        }
        return queued;
    }

    /** Takes beats in a fraction of cycles (0: never), recording (value, last, cycle). */
    static final class Sink extends Component {
        final Decoupled<PacketBeat> port;
        final double readyP;
        final List<long[]> got = new ArrayList<>();

        Sink(String name, Decoupled<PacketBeat> port, double readyP) {
            super(name);
            this.port = port;
            this.readyP = readyP;
        }

        @Override
        protected void drive() {
            sim().poke(port.ready, readyP >= 1 || readyP > 0 && rng().chance(readyP));
        }

        @Override
        protected void sample() {
            if (sim().peekBool(port.valid) && sim().peekBool(port.ready)) {
                got.add(new long[] {sim().peekBig(port.bits.data).longValueExact(), sim().peek(port.bits.last), cycle()});
            }
        }
    }

    record Harness(Testbench<ChppCable> tb, BeatSource in, BeatSource inGet, Sink out, Sink outGet) implements AutoCloseable {
        static Harness of(RunConfig cfg, int depth, int latency, boolean own, double offer, double outReady, double getReady) {
            Testbench<ChppCable> tb = Testbench.create(() -> new ChppCable(depth, latency, own), cfg);
            ChppCable l = tb.dut();
            Harness b = new Harness(tb, tb.add(BeatSource.offering("in", l.in, offer)),
                    tb.add(BeatSource.offering("inGet", l.inGet, offer)),
                    tb.add(new Sink("out", l.out, outReady)), tb.add(new Sink("outGet", l.outGet, getReady)));
            tb.reset(1);
            return b;
        }

        long peek(org.flitkit.hdl.Bits s) {
            return tb.sim().peek(s);
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    static Throwable refusal(int depth, int latency, boolean own) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(
                () -> org.flitkit.hdl.sim.Simulator.of(() -> new ChppCable(depth, latency, own)));
        while (t != null && !(t instanceof IllegalArgumentException)) {
            t = t.getCause();
        }
        assertThat(t).as("an IllegalArgumentException for depth %d latency %d", depth, latency).isNotNull();
        return t;
    }

    @Test
    void parametersOutOfRangeAreRefusedWithTheReason() {
        assertThat(refusal(0, 4, true)).hasMessageContaining("depth 0 outside 1..4096");
        assertThat(refusal(4097, 4, true)).hasMessageContaining("depth 4097 outside 1..4096");
        assertThat(refusal(8, 0, false)).hasMessageContaining("latency 0 outside 1..1024").hasMessageContaining("at least one register stage");
        assertThat(refusal(8, 1025, false)).hasMessageContaining("latency 1025 outside 1..1024");
    }

    /** A 20-beat PUT, then five 3-beat GETs offered from the next cycle on, for 200 cycles; the data receiver takes nothing. */
    private static void putThenGetsToAReceiverThatTakesNothing(Harness b) {
        packet(b.in(), 1, 20);
        for (int g = 0; g < 5; g++) {
            packet(b.inGet(), 10 + g, 3);
        }
        long from = b.tb().cycle() + 1;
        b.inGet().gate(() -> b.tb().cycle() >= from);
        b.tb().run(200);
    }

    @Test
    void getsOnTheirOwnVcPassAPutWhoseReceiverTakesNothing(RunConfig cfg) {
        try (Harness b = Harness.of(cfg, 8, 4, true, 1.0, 0.0, 1.0)) {
            putThenGetsToAReceiverThatTakesNothing(b);
            ChppCable l = b.tb().dut();
            // the data VC: exactly one buffer of beats left, then no credits
            assertThat(b.in().taken).isEqualTo(8);
            assertThat(b.peek(l.buffered.get(0))).isEqualTo(8);
            assertThat(b.peek(l.credits.get(0))).isZero();
            assertThat(b.peek(l.vcBeats.get(0))).isEqualTo(8);
            // the GET VC: all 15 beats, in order, past it
            assertThat(b.outGet().got).hasSize(15);
            for (int i = 0; i < 15; i++) {
                assertThat(b.outGet().got.get(i)[0]).isEqualTo((10 + i / 3) * 1000L + i % 3);
                assertThat(b.outGet().got.get(i)[1]).isEqualTo(i % 3 == 2 ? 1 : 0);
            }
            assertThat(b.peek(l.credits.get(1))).isEqualTo(8);
            assertThat(b.peek(l.wireBeats)).isEqualTo(23);
        }
    }

    @Test
    void getsSharingTheVcWaitBehindAPutWhoseReceiverTakesNothing(RunConfig cfg) {
        try (Harness b = Harness.of(cfg, 8, 4, false, 1.0, 0.0, 1.0)) {
            putThenGetsToAReceiverThatTakesNothing(b);
            ChppCable l = b.tb().dut();
            assertThat(b.in().taken).isEqualTo(8);
            assertThat(b.inGet().taken).as("the merge is locked on the PUT").isZero();
            assertThat(b.outGet().got).isEmpty();
            assertThat(l.vcs).isEqualTo(1);
            assertThat(b.peek(l.buffered.get(0))).isEqualTo(8);
            assertThat(b.peek(l.credits.get(0))).isZero();
        }
    }

    /** Credits come back 2 latency + 2 cycles after they were spent: a backlogged VC moves depth beats per round trip. */
    @Test
    void aBackloggedVcMovesExactlyDepthBeatsPerCreditRoundTrip(RunConfig cfg) {
        int latency = 4;
        for (int depth : new int[] {2 * latency + 2, 8, 3}) {
            try (Harness b = Harness.of(cfg, depth, latency, true, 1.0, 1.0, 1.0)) {
                packet(b.in(), 1, 400);
                b.tb().run(1000);
                List<long[]> got = b.out().got;
                assertThat(got).hasSizeGreaterThan(200);
                long t0 = got.get(50)[2];
                long inWindow = got.stream().filter(x -> x[2] >= t0 && x[2] < t0 + 100).count();
                assertThat(inWindow).as("depth %d", depth).isEqualTo(Math.min(100, 100L * depth / (2 * latency + 2)));
                // the first beat: latency wire stages, then the buffer's register
                assertThat(got.get(0)[2]).isEqualTo(b.in().takenAt.get(0) + latency + 1);
            }
        }
    }

    @Test
    void randomPacketsOnBothVcsArriveWholeAndInOrderUnderBackpressure(RunConfig cfg) {
        for (boolean own : new boolean[] {true, false}) {
            try (Harness b = Harness.of(cfg, 5, 3, own, 0.7, 0.6, 0.5)) {
                Rng r = new Rng(7);
                List<long[]> wantPut = new ArrayList<>();
                List<long[]> wantGet = new ArrayList<>();
                for (int p = 0; p < 60; p++) {
                    int n = 1 + r.nextInt(12);
                    wantPut.addAll(packet(b.in(), p, n));
                    wantGet.addAll(packet(b.inGet(), 100 + p, 3));
                }
                b.tb().runUntil("all beats delivered", () -> b.out().got.size() + b.outGet().got.size() == wantPut.size() + wantGet.size(), 20_000);
                if (own) {
                    assertThat(b.out().got.stream().map(x -> x[0] + "/" + x[1]).toList())
                            .isEqualTo(wantPut.stream().map(x -> x[0] + "/" + x[1]).toList());
                    assertThat(b.outGet().got.stream().map(x -> x[0] + "/" + x[1]).toList())
                            .isEqualTo(wantGet.stream().map(x -> x[0] + "/" + x[1]).toList());
                } else {
                    // one VC: whole packets, each source's in order, interleaved only at packet boundaries
                    assertThat(b.outGet().got).isEmpty();
                    List<String> puts = new ArrayList<>();
                    List<String> gets = new ArrayList<>();
                    long cur = -1;
                    for (long[] x : b.out().got) {
                        long pkt = x[0] / 1000;
                        if (cur >= 0) {
                            assertThat(pkt).as("beats of one packet stay together").isEqualTo(cur);
                        }
                        cur = x[1] != 0 ? -1 : pkt;
                        (pkt >= 100 ? gets : puts).add(x[0] + "/" + x[1]);
                    }
                    assertThat(puts).isEqualTo(wantPut.stream().map(x -> x[0] + "/" + x[1]).toList());
                    assertThat(gets).isEqualTo(wantGet.stream().map(x -> x[0] + "/" + x[1]).toList());
                }
                ChppCable l = b.tb().dut();
                b.tb().run(2 * 3 + 2); // the last credits are still on their way back
                for (int v = 0; v < l.vcs; v++) {
                    assertThat(b.peek(l.credits.get(v))).isEqualTo(5);
                }
            }
        }
    }
}
