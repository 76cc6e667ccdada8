package org.flitkit.rtl.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.Testbench;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The tag allocator: lowest-free grants at one per cycle, release by last or error completion, timeout at exactly
 * {@code completionTimeout} cycles, quarantine and late completions, spurious releases refused and counted; and a
 * seeded random run checked every cycle by {@link TagScoreboard}. docs/chpp-dma.md, "Tag allocator".
 */
@ExtendWith(TestbenchExtension.class)
class TagAllocatorTest {
    static final int T = 40;
    static final ChppParams P = ChppParams.paper().withCompletionTimeout(T);

    /** The allocator with its scoreboard; the test drives alloc.ready and release by hand. */
    static final class Harness implements AutoCloseable {
        final Testbench<TagAllocator> tb;
        final Simulator sim;
        final TagAllocator a;
        final TagScoreboard sb;

        Harness(ChppParams p, RunConfig cfg) {
            tb = Testbench.create(() -> new TagAllocator(p), cfg);
            sim = tb.sim();
            a = tb.dut();
            sb = tb.add(new TagScoreboard("tag_scoreboard", a));
            sim.poke(a.alloc.ready, 0);
            sim.poke(a.release.valid, 0);
            tb.reset(1);
        }

        /** One cycle with alloc.ready high; returns the tag granted, or -1. */
        int take() {
            sim.poke(a.alloc.ready, 1);
            int t = sim.peekBool(a.alloc.valid) ? (int) sim.peek(a.alloc.bits) : -1;
            tb.run(1);
            sim.poke(a.alloc.ready, 0);
            return t;
        }

        /** One cycle releasing {@code tag}. */
        void release(int tag, boolean error) {
            sim.poke(a.release.valid, 1);
            sim.poke(a.release.bits.tag, tag);
            sim.poke(a.release.bits.error, error);
            tb.run(1);
            sim.poke(a.release.valid, 0);
        }

        long peek(org.flitkit.hdl.Bits b) {
            return sim.peek(b);
        }

        @Override
        public void close() {
            tb.close();
        }
    }

    @Test
    void grantsTheLowestFreeTagOnePerCycleAndNothingWhenAllAreInFlight(RunConfig cfg) {
        try (Harness b = new Harness(P, cfg)) {
            b.tb.run(1); // the offer register fills
            List<Integer> got = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                got.add(b.take());
            }
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                expected.add(i);
            }
            assertThat(got).containsExactlyElementsOf(expected);
            assertThat(b.peek(b.a.freeCount)).isZero();
            assertThat(b.sim.peekBool(b.a.alloc.valid)).isFalse();
            assertThat(b.sim.peekBig(b.a.inFlight).longValue()).isEqualTo(0xffff_ffffL);
            // release 9 (last completion) and 4 (error completion): the lower is offered first
            b.release(9, false);
            b.release(4, true);
            assertThat(b.sim.peekBool(b.a.alloc.valid)).as("offered one cycle after the first release").isTrue();
            assertThat(b.peek(b.a.alloc.bits)).isEqualTo(9);
            assertThat(b.take()).isEqualTo(9);
            assertThat(b.take()).isEqualTo(4);
            assertThat(b.peek(b.a.errorCompletions)).isEqualTo(1);
            assertThat(b.peek(b.a.spuriousReleases)).isZero();
            for (int t = 0; t < 32; t++) {
                b.release(t, false);
            }
            b.tb.run(1);
            assertThat(b.peek(b.a.freeCount)).isEqualTo(32);
            b.tb.finish();
        }
    }

    @Test
    void aReadWithoutCompletionTimesOutAfterExactlyTheTimeoutAndItsTagIsQuarantined(RunConfig cfg) {
        try (Harness b = new Harness(P, cfg)) {
            b.tb.run(1);
            long granted = b.tb.cycle();
            assertThat(b.take()).isZero();
            assertThat(b.take()).isEqualTo(1);
            b.tb.runUntil("tag 0 times out", () -> b.sim.peekBool(b.a.timedOut.valid), 10 * T);
            long at = b.tb.cycle();
            assertThat(at - granted).isEqualTo(T);
            assertThat(b.peek(b.a.timedOut.bits)).isZero();
            b.release(1, false); // tag 1's read completes just before its own timeout
            b.tb.run(1);
            assertThat(b.peek(b.a.timeouts)).isEqualTo(1);
            assertThat(b.peek(b.a.quarantined)).isEqualTo(1);
            assertThat(b.peek(b.a.inFlight)).isZero();
            assertThat(b.peek(b.a.freeCount)).isEqualTo(31);
            // the quarantine lasts another T cycles; tag 0 is not offered meanwhile (tags 1.. are)
            b.tb.runUntil("tag 0 free again", () -> b.peek(b.a.quarantined) == 0, 10 * T);
            assertThat(b.tb.cycle() - at).isEqualTo(T + 1);
            assertThat(b.peek(b.a.freeCount)).isEqualTo(32);
            assertThat(b.peek(b.a.lateCompletions)).isZero();
            b.tb.finish();
        }
    }

    @Test
    void aCompletionInTheCycleTheTimeoutExpiresWins(RunConfig cfg) {
        try (Harness b = new Harness(P, cfg)) {
            b.tb.run(1);
            assertThat(b.take()).isZero();
            b.tb.run(T - 2);
            assertThat(b.sim.peekBool(b.a.timedOut.valid)).isFalse();
            b.tb.run(1);
            // T cycles after the grant: the timeout would be reported now, but the completion arrives now
            b.sim.poke(b.a.release.valid, 1);
            b.sim.poke(b.a.release.bits.tag, 0);
            b.sim.poke(b.a.release.bits.error, 0);
            assertThat(b.sim.peekBool(b.a.timedOut.valid)).isFalse();
            b.tb.run(1);
            b.sim.poke(b.a.release.valid, 0);
            b.tb.run(T + 5);
            assertThat(b.peek(b.a.timeouts)).isZero();
            assertThat(b.peek(b.a.freeCount)).isEqualTo(32);
            b.tb.finish();
        }
    }

    @Test
    void aLateCompletionEndsTheQuarantineAndIsCountedNotSpurious(RunConfig cfg) {
        try (Harness b = new Harness(P, cfg)) {
            b.tb.run(1);
            assertThat(b.take()).isZero();
            b.tb.runUntil("timeout", () -> b.sim.peekBool(b.a.timedOut.valid), 10 * T);
            b.tb.run(1 + T / 2);
            assertThat(b.peek(b.a.quarantined)).isEqualTo(1);
            b.release(0, false);
            assertThat(b.peek(b.a.quarantined)).isZero();
            assertThat(b.peek(b.a.lateCompletions)).isEqualTo(1);
            assertThat(b.peek(b.a.spuriousReleases)).isZero();
            assertThat(b.peek(b.a.freeCount)).isEqualTo(32);
            // a second copy of that completion finds the tag free: spurious
            b.release(0, false);
            assertThat(b.peek(b.a.spuriousReleases)).isEqualTo(1);
            b.tb.finish();
        }
    }

    @Test
    void releasesForTagsNotInUseAreRefusedCountedAndChangeNothing(RunConfig cfg) {
        try (Harness b = new Harness(P, cfg)) {
            b.tb.run(1);
            assertThat(b.take()).isZero();
            assertThat(b.take()).isEqualTo(1);
            long offer = b.peek(b.a.alloc.bits);
            b.release(5, false);   // free, in the pool
            b.release(2, true);    // the tag on offer
            b.release(32, false);  // beyond the 32-tag pool
            b.release(255, true);  // the largest 8-bit tag
            b.release(1, false);   // real
            b.release(1, false);   // again: now spurious
            assertThat(b.peek(b.a.spuriousReleases)).isEqualTo(5);
            assertThat(b.peek(b.a.errorCompletions)).isZero();
            assertThat(b.peek(b.a.inFlight)).isEqualTo(1);
            assertThat(b.peek(b.a.freeCount)).isEqualTo(31);
            // the offer (tag 2) holds until taken, although tag 1 is free again and lower
            assertThat(offer).isEqualTo(2);
            assertThat(b.peek(b.a.alloc.bits)).isEqualTo(offer);
            assertThat(b.take()).isEqualTo(2);
            assertThat(b.take()).isEqualTo(1);
            b.release(0, false);
            b.release(1, false);
            b.release(2, false);
            b.tb.finish();
        }
    }

    /**
     * Drives alloc.ready at random and ends every granted read at a random latency: by its last completion (80%)
     * or an error completion (20%) within the timeout, or, for 10% of the reads, never (half of those complete late,
     * during their quarantine). Also 1% of cycles carry a spurious release. One release port: a read whose cycle is
     * taken moves to the next free one, always within the timeout.
     */
    static final class Requester extends Component {
        private final TagAllocator a;
        private final int limit;
        private final int tags;
        private final double readyP;
        private final Map<Long, int[]> schedule = new HashMap<>();
        private final Map<Integer, Boolean> lateTags = new HashMap<>();
        boolean allocating = true;
        long neverCompleted, lateCompleted, inTime, spuriousSent, exactlyAtLimit;

        Requester(TagAllocator a, double readyP) {
            super("requester");
            this.a = a;
            this.limit = a.params.completionTimeout();
            this.tags = a.params.tags();
            this.readyP = readyP;
        }

        @Override
        protected void drive() {
            Simulator sim = sim();
            sim.poke(a.alloc.ready, allocating && rng().chance(readyP));
            int[] r = schedule.remove(cycle());
            if (r == null && allocating && rng().chance(0.01)) {
                r = new int[] {spuriousTag(sim), 0};
                if (r[0] >= 0) {
                    spuriousSent++;
                } else {
                    r = null;
                }
            }
            sim.poke(a.release.valid, r != null);
            sim.poke(a.release.bits.tag, r != null ? r[0] : 0);
            sim.poke(a.release.bits.error, r != null && r[1] != 0);
        }

        /** A tag the allocator holds free and does not offer this cycle, or one beyond the pool. */
        private int spuriousTag(Simulator sim) {
            if (rng().chance(0.5) && tags < 256) {
                return tags + rng().nextInt(256 - tags);
            }
            java.math.BigInteger busy = sim.peekBig(a.inFlight).or(sim.peekBig(a.quarantined));
            long offered = sim.peekBool(a.alloc.valid) ? sim.peek(a.alloc.bits) : -1;
            for (int i = 0; i < 8; i++) {
                int t = rng().nextInt(tags);
                if (!busy.testBit(t) && t != offered) {
                    return t;
                }
            }
            return -1;
        }

        /** The first cycle from {@code want} with the release port free, at the latest {@code deadline}. */
        private long slot(long want, long deadline) {
            for (long c = want; c <= deadline; c++) {
                if (!schedule.containsKey(c)) {
                    return c;
                }
            }
            for (long c = want - 1; c > cycle(); c--) {
                if (!schedule.containsKey(c)) {
                    return c;
                }
            }
            throw fail("no free release slot before cycle " + deadline);
        }

        @Override
        protected void sample() {
            Simulator sim = sim();
            long now = cycle();
            if (sim.peekBool(a.alloc.valid) && sim.peekBool(a.alloc.ready)) {
                int tag = (int) sim.peek(a.alloc.bits);
                double fate = rng().nextDouble();
                if (fate < 0.10) {
                    neverCompleted++;
                    if (rng().chance(0.5)) {
                        lateTags.put(tag, rng().chance(0.2));
                    }
                } else {
                    long want;
                    if (fate < 0.13) {
                        want = now + limit; // the cycle the timeout would fire: the completion must win
                    } else if (fate < 0.30) {
                        want = now + limit / 2 + rng().nextInt(limit / 2);
                    } else {
                        want = now + 1 + rng().nextInt(Math.max(1, limit / 4));
                    }
                    long at = slot(want, now + limit);
                    if (at == now + limit) {
                        exactlyAtLimit++;
                    }
                    schedule.put(at, new int[] {tag, rng().chance(0.2) ? 1 : 0});
                    inTime++;
                }
            }
            if (sim.peekBool(a.timedOut.valid)) {
                int tag = (int) sim.peek(a.timedOut.bits);
                Boolean error = lateTags.remove(tag);
                if (error != null) {
                    // quarantined from now + 1 through now + limit
                    long at = slot(now + 1 + rng().nextInt(limit / 2), now + limit);
                    schedule.put(at, new int[] {tag, error ? 1 : 0});
                    lateCompleted++;
                }
            }
        }

        boolean idle() {
            return schedule.isEmpty() && lateTags.isEmpty();
        }
    }

    private static void randomRun(ChppParams p, RunConfig cfg, long cycles, double readyP) {
        try (Harness b = new Harness(p, cfg)) {
            Requester req = b.tb.add(new Requester(b.a, readyP));
            b.tb.run(cycles);
            req.allocating = false;
            b.tb.runUntil("every read ended and every tag free", () -> req.idle() && b.sb.allFree(), 4L * p.completionTimeout());
            b.tb.run(2);
            b.tb.finish();

            long reads = req.neverCompleted + req.inTime;
            System.out.printf("tag allocator random run (%d tags, timeout %d, seed %d): %d cycles, %d reads (%.3f per cycle),"
                    + " %d timed out (%d completed late), %d completed exactly at the limit, %d spurious releases%n",
                    p.tags(), p.completionTimeout(), cfg.seed(), b.tb.cycle(), reads, (double) reads / cycles,
                    req.neverCompleted, req.lateCompleted, req.exactlyAtLimit, req.spuriousSent);
            assertThat(b.sb.grants()).isEqualTo(reads);
            assertThat(b.sb.timeouts()).as("timeouts = reads never completed in time").isEqualTo(req.neverCompleted);
            assertThat(b.peek(b.a.timeouts)).isEqualTo(req.neverCompleted);
            assertThat(b.peek(b.a.lateCompletions)).isEqualTo(req.lateCompleted);
            assertThat(b.peek(b.a.spuriousReleases)).isEqualTo(req.spuriousSent);
            assertThat(b.sb.releases()).isEqualTo(req.inTime);
            assertThat(b.peek(b.a.errorCompletions)).isEqualTo(b.sb.errors());
            assertThat(b.peek(b.a.freeCount)).isEqualTo(p.tags());
            // the run exercised every path
            assertThat(req.neverCompleted).isGreaterThan(reads / 20);
            assertThat(req.lateCompleted).isPositive();
            assertThat(req.exactlyAtLimit).isPositive();
            assertThat(req.spuriousSent).isPositive();
            assertThat(b.sb.errors()).isPositive();
        }
    }

    @Test
    void randomReadsWithErrorsTimeoutsAndLateCompletionsKeepTheInvariants(RunConfig cfg) {
        randomRun(ChppParams.paper().withCompletionTimeout(300), cfg, 25_000, 0.6);
    }

    /** Few tags and a short timeout: the pool is empty most of the time and timeouts overlap with grants. */
    @Test
    void randomRunWithThreeTagsAndATwentyCycleTimeout(RunConfig cfg) {
        randomRun(ChppParams.paper().withTags(3).withCompletionTimeout(20), cfg, 6_000, 0.9);
    }

    @Test
    void randomRunWith256ExtendedTags(RunConfig cfg) {
        randomRun(ChppParams.paper().withTags(ChppParams.EXTENDED_TAGS).withCompletionTimeout(600), cfg, 8_000, 0.8);
    }
}
