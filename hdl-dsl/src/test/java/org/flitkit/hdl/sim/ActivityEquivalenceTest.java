package org.flitkit.hdl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.flitkit.hdl.Hdl.*;

import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.junit.jupiter.api.Test;
import org.flitkit.hdl.lib.SkidBuffer;

/**
 * Activity skipping is exact: with it off, with the activity-skipping variant pinned, with the plain
 * variant pinned and in the default adaptive mode, every named signal has the same value on every
 * cycle, whether stepped one cycle at a time or thousands at once.
 */
class ActivityEquivalenceTest {
    /**
     * A cycle counter read only under mux selects (time stamps taken on events, a register read port),
     * whose readers are woken at the edge only when a select is 1; plus a check and a print that read
     * the stamps, and state that changes only on rare input events.
     */
    static final class Stamps extends Module {
        final UInt ev = input(UInt(4));
        final UInt readAddr = input(UInt(3));
        final UInt readData = output(UInt(32));
        final UInt cycle = regInit(UInt(32), 0);
        final Vec<UInt> stamp = regInit(Vec(4, () -> UInt(32)), 0);
        final UInt prev = regInit(UInt(4), 0);
        final UInt rd = regInit(UInt(32), 0);

        Stamps() {
            this(true);
        }

        /** {@code counterCheck}: a check reads the counter at every edge, which keeps the design from ever sleeping. */
        Stamps(boolean counterCheck) {
            cycle.assign(cycle.add(1));
            prev.assign(ev);
            UInt rise = ev.and(prev.not());
            for (int i = 0; i < 4; i++) {
                int k = i;
                when(rise.bit(k), () -> stamp.get(k).assign(cycle));
            }
            UInt selected = MuxLookup(readAddr, lit(0, 32),
                    java.util.Map.of(0, stamp.get(0), 1, stamp.get(1), 2, stamp.get(2), 3, stamp.get(3), 4, cycle));
            when(readAddr.ne(7), () -> rd.assign(selected));
            readData.assign(rd);
            if (counterCheck) {
                check(stamp.get(0).le(cycle), "stamp 0 is never ahead of the counter");
            }
            when(rise.bit(3), () -> printf("event 3 at %d\n", cycle));
        }
    }


    @Test
    void guardedCounterReadersSeeTheCounterWheneverTheirSelectIsOne() {
        VariantAgreement.agree(Stamps::new, 7, 400);
        // without the check, whose condition reads the counter and so wakes its chunk on every cycle
        VariantAgreement.agree(() -> new Stamps(false), 8, 400);
        Simulator sim = Simulator.of(Stamps::new);
        sim.reset();
        sim.poke("stamps.readAddr", 4);
        sim.step(1000);
        // the read port follows the counter (select 1): it lags it by one register stage
        assertThat(sim.peek("stamps.readData")).isEqualTo(sim.peek("stamps.cycle") - 1);
        sim.poke("stamps.ev", 1);
        sim.step(3);
        sim.poke("stamps.readAddr", 0);
        sim.step(5000);
        // the stamp took the counter at the rising edge of event bit 0, the counter read 1,000 then (1,000 edges after reset)
        assertThat(sim.peek("stamps.readData")).isEqualTo(1000);
        assertThat(sim.skippedChunks()).isPositive();
    }

    /**
     * A counter read in the second arm of a select counts while the select is 0: its reader must be woken
     * at the edge for that value of the select, not for 1 (a register following the counter froze at its
     * first value when only the first arm was known).
     */
    static final class SecondArm extends Module {
        final Bool hold = input(Bool());
        final UInt out = output(UInt(32));
        final UInt cycle = regInit(UInt(32), 0);
        final UInt follow = regInit(UInt(32), 0);

        SecondArm() {
            cycle.assign(cycle.add(1));
            follow.assign(mux(hold, lit(5, 32), cycle));
            out.assign(follow);
        }
    }

    @Test
    void aCounterReadInTheSecondArmWakesItsReaderWhileTheSelectIsZero() {
        Simulator sim = Simulator.of(SecondArm::new);
        sim.reset();
        sim.poke("secondArm.hold", 1);
        sim.step(10);
        assertThat(sim.peek("secondArm.out")).isEqualTo(5);
        sim.poke("secondArm.hold", 0);
        sim.step(100);
        // the register follows the counter one edge behind it: reset left both at 0, 110 edges since
        assertThat(sim.peek("secondArm.cycle")).isEqualTo(110);
        assertThat(sim.peek("secondArm.out")).isEqualTo(109);
        for (int i = 0; i < 50; i++) {
            sim.step();
        }
        assertThat(sim.peek("secondArm.out")).isEqualTo(159);
        VariantAgreement.agree(SecondArm::new, 9, 300);
    }

    /**
     * One port of {@link Offers}: a register takes the offered packet while {@code load} is 1 (first arm
     * of a select), a second one while {@code keep} is 0 (second arm).
     */
    static final class Port extends Module {
        final UInt offer = input(UInt(200));
        final Bool load = input(Bool());
        final Bool keep = input(Bool());
        final UInt out = output(UInt(200));
        final UInt other = output(UInt(200));

        Port() {
            // neither register reads itself: only the packet's change (or the select's) wakes this port
            UInt r = regInit(UInt(200), 0);
            r.assign(mux(load, offer, lit(0, 200)));
            UInt q = regInit(UInt(200), 0);
            q.assign(mux(keep, lit(5, 200), offer));
            out.assign(r);
            other.assign(q);
        }
    }

    /**
     * A packet made fresh on every cycle (from an LFSR) offered to four ports, each reading it only in an
     * arm of a select: a port wakes for the packet's change only while its select is in that arm.
     */
    static final class Offers extends Module {
        final UInt take = input(UInt(2));
        final Bool enable = input(Bool());
        final UInt keep = input(UInt(4));
        final UInt last = output(UInt(8));

        Offers() {
            UInt lfsr = org.flitkit.hdl.lib.Lfsr.galois(64, TRUE(), 0x1234_5678_9ABC_DEF1L);
            UInt offer = lfsr.cat(lfsr.not(), lfsr.bits(56, 0).cat(lfsr.bits(63, 57)), lfsr.bits(7, 0)).named("offer");
            UInt turn = regInit(UInt(2), 0).named("turn");
            when(lfsr.bits(4, 0).eq(0), () -> turn.assign(turn.add(1)));
            UInt acc = lit(0, 8);
            for (int p = 0; p < 4; p++) {
                Port port = instance("port" + p, new Port());
                port.offer.assign(offer);
                // the selects change within runs of unobserved cycles too, and stay for a while
                port.load.assign(enable.and(take.eq(p).or(turn.eq(p))));
                port.keep.assign(keep.bit(p));
                acc = acc.xor(port.out.bits(7, 0)).xor(port.other.bits(199, 192));
            }
            last.assign(acc);
        }
    }

    @Test
    void aValueReadOnlyInArmsWakesItsReadersWhileTheirSelectsAreInThoseArms() {
        Simulator sim = Simulator.of(Offers::new);
        // every port reads the packet only in an arm: its change wakes none of them unconditionally (the
        // four tests are long enough to be written in a method beside the chunk's)
        assertThat(sim.generatedSource()).containsPattern("(?s)Wide\\.changed\\([^)]*\\)\\) \\{ (w\\d+_\\d+)\\(v, act\\); \\}.*"
                + "private static void \\1\\(long\\[\\] v, long\\[\\] act\\) \\{\\s+if \\(v\\[\\d+\\] [!=]= 0L\\) \\{ act");
        for (long seed = 10; seed < 14; seed++) {
            VariantAgreement.agree(Offers::new, seed, 400);
        }
    }

    /** A design where only the counter moves sleeps: skipping 10^9 cycles costs one call and matches stepping. */
    @Test
    void aQuietDesignSkipsTimeExactly() {
        Circuit c = Circuit.elaborate(() -> new Stamps(false));
        Simulator stepped = Simulator.of(c);
        Simulator skipped = stepped.newInstance();
        StringBuilder printed = new StringBuilder();
        skipped.setPrintSink(printed::append);
        for (Simulator s : List.of(stepped, skipped)) {
            s.reset();
            s.poke("stamps.readAddr", 7);
            s.poke("stamps.ev", 5);
            s.step(3);
        }
        assertThat(skipped.quiet()).isTrue();
        stepped.step(100_000);
        skipped.skipQuiet(100_000);
        assertThat(skipped.cycle()).isEqualTo(stepped.cycle());
        for (String sig : stepped.signalNames()) {
            assertThat(skipped.peekBig(sig)).as(sig).isEqualTo(stepped.peekBig(sig));
        }
        assertThat(skipped.peek("stamps.cycle")).isEqualTo(100_003);
        skipped.skipQuiet(1L << 32);
        assertThat(skipped.peek("stamps.cycle")).as("a 32-bit counter wraps").isEqualTo(100_003);
        // reading the counter through the read port (its select is 1) keeps the design awake
        skipped.poke("stamps.readAddr", 4);
        skipped.step();
        assertThat(skipped.quiet()).isFalse();
        skipped.poke("stamps.readAddr", 7);
        skipped.step(2);
        assertThat(skipped.quiet()).isTrue();
        // an input event wakes it, and the stamp and the print see the counter's skipped-to value
        skipped.poke("stamps.ev", 13);
        assertThat(skipped.quiet()).isFalse();
        skipped.step(2);
        assertThat(skipped.peek("stamps.stamp_3")).isEqualTo(100_006);
        assertThat(printed.toString()).isEqualTo("event 3 at 100006\n");
        // a check that reads the counter at every edge must be evaluated every cycle: no sleeping
        Simulator checked = Simulator.of(Stamps::new);
        checked.reset();
        checked.poke("stamps.readAddr", 7);
        checked.step(10);
        assertThat(checked.quiet()).isFalse();
    }

    /**
     * Timers: free-running counters compared with constants (an 8-bit clock ticking at 200, a 10-bit one
     * stepping by 6 compared with NE, a down-counter, a 5-bit one through ANDR and ORR), each tick counted by a register that the
     * comparison's change wakes. The count registers are not counters (they add under a condition).
     */
    static final class Ticks extends Module {
        final UInt count = output(UInt(16));
        final UInt gaps = output(UInt(16));
        final UInt down = output(UInt(16));
        final UInt allOnes = output(UInt(16));

        Ticks() {
            UInt clock = timer(8, 0, 1);
            count.assign(tally(clock.eq(200)));
            // 4 + 6i reaches 998 (i = 507 mod 512) but never 999, an odd value
            UInt even = timer(10, 4, 6);
            gaps.assign(tally(even.ne(998).and(even.ne(999)).not()));
            down.assign(tally(timer(12, 0, -3).eq(7)));
            // all ones (ANDR) and not zero (ORR) are comparisons with constants too
            UInt fast = timer(5, 0, 1);
            allOnes.assign(tally(fast.andR().and(fast.orR())));
        }

        /** A free-running counter: adds {@code step} (subtracts, if negative) on every cycle. */
        private static UInt timer(int width, int start, int step) {
            UInt t = regInit(UInt(width), start);
            t.assign(step < 0 ? t.sub(-step) : t.add(step));
            return t;
        }

        /** How many cycles {@code event} held (a register that adds under a condition, so not a counter). */
        private static UInt tally(Bool event) {
            UInt n = regInit(UInt(16), 0);
            when(event, () -> n.assign(n.add(1)));
            return n;
        }
    }

    /** Each tick of a timer wakes its readers, and a quiet design skips up to the next tick exactly. */
    @Test
    void aTimersTickWakesItsReadersAndBoundsTheSkip() {
        Circuit c = Circuit.elaborate(Ticks::new);
        Simulator stepped = Simulator.of(c);
        Simulator skipped = stepped.newInstance();
        stepped.reset();
        skipped.reset();
        long total = 300_000;
        stepped.step(total);
        int skips = 0;
        while (skipped.cycle() < stepped.cycle()) {
            long most = Math.min(skipped.quietFor(), stepped.cycle() - skipped.cycle());
            if (most > 0) {
                // halfway, then a read (it settles the design between two skips), then the rest
                skipped.skipQuiet(most / 2);
                skipped.peek("ticks.count");
                skipped.skipQuiet(most - most / 2);
                skips++;
            } else {
                skipped.step();
            }
        }
        for (String sig : stepped.signalNames()) {
            assertThat(skipped.peekBig(sig)).as(sig).isEqualTo(stepped.peekBig(sig));
        }
        // 256-cycle clock from 0: ticks at cycles 200 + 256i (the reset edge counts as cycle 0)
        assertThat(stepped.peek("ticks.count")).isEqualTo((total + 1 - 200 + 255) / 256);
        assertThat(stepped.peek("ticks.allOnes")).isEqualTo((total + 1 - 31 + 31) / 32);
        // the 5-bit timer's ANDR changes twice per 32 cycles: at most 18,750 skips; stepping alone would make none
        assertThat(skips).as("the design sleeps between ticks").isBetween(5_000, 18_750);
        // skipping past the next tick is refused
        while (!skipped.quiet()) {
            skipped.step();
        }
        assertThat(skipped.quietFor()).isPositive();
        long beyond = skipped.quietFor() + 1;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> skipped.skipQuiet(beyond))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("wakes the design at cycle");
    }

    @Test
    void cyclesToChangeSolvesTheCounterModuloItsWidth() {
        assertThat(Simulator.cyclesToChange(10, 200, 1, 0xff)).isEqualTo(190);
        assertThat(Simulator.cyclesToChange(201, 200, 1, 0xff)).isEqualTo(255);
        assertThat(Simulator.cyclesToChange(200, 200, 1, 0xff)).isEqualTo(1);
        assertThat(Simulator.cyclesToChange(4, 998, 6, 0x3ff)).isEqualTo(507);
        assertThat(Simulator.cyclesToChange(4, 999, 6, 0x3ff)).isEqualTo(Long.MAX_VALUE);
        assertThat(Simulator.cyclesToChange(0, 7, -3 & 0xfff, 0xfff)).isEqualTo(1363);
        assertThat(Simulator.cyclesToChange(5, 5 + 3 * 1_000_000_007L, 3, -1L)).isEqualTo(1_000_000_007L);
        assertThat(Simulator.cyclesToChange(3, 3, 0, 0xff)).isEqualTo(Long.MAX_VALUE);
    }

    /** The chunk profile names what runs: at rest, the counter's own chunk alone, every cycle. */
    @Test
    void chunkProfileShowsWhatRuns() {
        Simulator sim = Simulator.of(() -> new Stamps(false));
        sim.reset();
        sim.poke("stamps.readAddr", 7);
        sim.step(5);
        List<Simulator.ChunkProfile> p = sim.profileChunks(1000);
        assertThat(p.get(0).runsPerCycle()).isEqualTo(1.0);
        assertThat(p.get(0).modules()).isEqualTo("stamps");
        assertThat(p.get(1).runsPerCycle()).isZero();
        // reading the counter through the read port wakes the chunk holding it on every cycle too
        sim.poke("stamps.readAddr", 4);
        p = sim.profileChunks(1000);
        assertThat(p.get(1).runsPerCycle()).isEqualTo(1.0);
    }

    /** An LFSR and a constant output it is combined with. */
    static final class Tied extends Module {
        final UInt limit = output(UInt(16));
        final UInt mixed = output(UInt(16));

        Tied() {
            limit.assign(lit(0x1234, 16));
            mixed.assign(org.flitkit.hdl.lib.Lfsr.galois(16, TRUE(), 0xACE1L).xor(limit));
        }
    }

    /** Constants are evaluated in a chunk of their own, which never runs again after the first cycle. */
    @Test
    void constantsSleepFromTheFirstCycleOn() {
        Simulator sim = Simulator.of(Tied::new);
        sim.reset();
        sim.step(3);
        List<Simulator.ChunkProfile> p = sim.profileChunks(100);
        assertThat(p).hasSize(2);
        assertThat(p.get(0).runsPerCycle()).isEqualTo(1.0);
        assertThat(p.get(1).runsPerCycle()).isZero();
        assertThat(sim.peek("tied.limit")).isEqualTo(0x1234);
        Simulator off = Simulator.of(Tied::new);
        off.setActivitySkipping(false);
        off.reset();
        for (int i = 0; i < 103; i++) {
            off.step();
        }
        assertThat(sim.peek("tied.mixed")).isEqualTo(off.peek("tied.mixed")).isNotEqualTo(0x1234);
    }

    /** Hundreds of idle skid buffers and one counter: only the counter's chunk runs. */
    static final class IdleBuffers extends Module {
        final UInt count = output(UInt(32));

        IdleBuffers() {
            SkidBuffer prev = null;
            for (int i = 0; i < 400; i++) {
                SkidBuffer b = instance(new SkidBuffer(20));
                if (prev == null) {
                    b.in.valid.assign(0);
                    b.in.bits.assign(0);
                } else {
                    b.in.connect(prev.out);
                }
                prev = b;
            }
            prev.out.ready.assign(1);
            UInt c = regInit(UInt(32), 0);
            c.assign(c.add(1));
            count.assign(c);
        }
    }

    /** Every skipped chunk is counted, also those of flag words nobody raised; so an idle design keeps skipping on. */
    @Test
    void everySkippedChunkIsCounted() {
        Simulator sim = Simulator.of(IdleBuffers::new);
        sim.reset();
        sim.step(10);
        int chunks = sim.profileChunks(1).size();
        assertThat(chunks).as("several flag words").isGreaterThan(128);
        long before = sim.skippedChunks();
        sim.step(100_000);
        assertThat(sim.skippedChunks() - before).isEqualTo((chunks - 1) * 100_000L);
        assertThat(sim.activitySkipping()).isTrue();
    }
}
