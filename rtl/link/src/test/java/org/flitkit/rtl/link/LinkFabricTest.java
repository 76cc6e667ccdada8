package org.flitkit.rtl.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.flitkit.fabric.Chip;
import org.flitkit.fabric.Fabric;
import org.flitkit.fabric.Host;
import org.flitkit.fabric.Source;
import org.flitkit.fabric.WireChannel;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/**
 * Two link ports as two chips of a {@link Fabric}, joined by {@link WireChannel}s both ways: packets in bursts
 * with long idle stretches between them. While a link is up and idle its frames repeat, so both chips sleep
 * and the fabric jumps in time, waking them for the identity clock's ticks; stepping every chip every cycle gives
 * the same transfers and the same final state, with bit errors and a cut too, on 1 and 2 threads.
 */
class LinkFabricTest {
    static final BufferShape NRC = new BufferShape(6, 8, 32);
    static final int LATENCY = 4;
    private static Simulator proto;

    private static synchronized Simulator proto() {
        if (proto == null) {
            proto = Simulator.of(() -> new LinkPort(NRC, NRC, LinkParams.defaults()));
            proto.reset();
        }
        return proto;
    }

    record Run(List<String> trace, List<String> state, long evaluations, long processed, long sent, long received, long bitErrors) {
    }

    /** A packet of {@code len} flits on VC {@code vc}, random elsewhere. */
    static List<long[]> packet(SplittableRandom rng, int vc, int len) {
        List<long[]> flits = new ArrayList<>();
        for (int i = 0; i < len; i++) {
            BigInteger f = new BigInteger(Th2.FLIT_BITS, new java.util.Random(rng.nextLong()));
            int kind = (i == 0 ? 2 : 0) | (i == len - 1 ? 1 : 0);
            f = set(f, FlitLayouts.HEAD.KIND, kind);
            if (i == 0) {
                f = set(set(f, FlitLayouts.HEAD.VC, vc), FlitLayouts.HEAD.LEN, len);
            }
            long[] limbs = new long[(Th2.FLIT_BITS + 63) / 64];
            for (int k = 0; k < limbs.length; k++) {
                limbs[k] = f.shiftRight(64 * k).longValue();
            }
            flits.add(limbs);
        }
        return flits;
    }

    private static BigInteger set(BigInteger f, Field field, long value) {
        for (int b = 0; b < field.width(); b++) {
            f = ((value >>> b) & 1) != 0 ? f.setBit(field.lsb() + b) : f.clearBit(field.lsb() + b);
        }
        return f;
    }

    /**
     * {@code cycles} cycles of bursts (1..3 packets of 1..6 flits into a random end) separated mostly by idle
     * stretches of 2,000..9,000 cycles; {@code ber} on the a->b wire; the a->b wire cut from {@code cutAt} for
     * 600 cycles (cutAt < 0: never).
     */
    static Run run(long seed, long cycles, boolean exhaustive, int threads, double ber, long cutAt) {
        Simulator p = proto();
        LinkPort top = (LinkPort) p.circuit().top();
        List<String> trace = new ArrayList<>();
        long[] counts = new long[2];
        try (Fabric f = new Fabric().exhaustive(exhaustive).threads(threads, 1)) {
            Chip a = f.chip("a", p.fork());
            Chip b = f.chip("b", p.fork());
            f.poke(a, top.chipId, 0x0101);
            f.poke(a, top.port, 3);
            f.poke(b, top.chipType, 1);
            f.poke(b, top.chipId, 0x0202);
            f.poke(b, top.port, 17);
            WireChannel ab = f.wire(a, top.wireOut, b, top.wireIn).latency(LATENCY);
            f.wire(b, top.wireOut, a, top.wireIn).latency(LATENCY);
            if (ber > 0) {
                ab.bitErrors(ber, seed);
            }
            Source[] sources = {f.source(a, top.in), f.source(b, top.in)};
            f.sink(a, top.out, (c, fl) -> counts[1]++);
            f.sink(b, top.out, (c, fl) -> counts[1]++);
            f.observe((c, ch, into, fl) -> trace.add(c + " " + ch + (into ? " in " : " out ") + Long.toHexString(fl[0])));
            SplittableRandom rng = new SplittableRandom(seed);
            f.host(new Host() {
                long next = f.now() + 300;

                @Override
                public long nextEvent() {
                    return next;
                }

                @Override
                public void tick(long cycle) {
                    if (cutAt >= 0 && cycle >= cutAt && cycle < cutAt + 600) {
                        ab.cut(true);
                        next = cutAt + 600;
                        return;
                    }
                    ab.cut(false);
                    for (int n = rng.nextInt(1, 4); n > 0; n--) {
                        for (long[] flit : packet(rng, rng.nextInt(6), rng.nextInt(1, 7))) {
                            sources[rng.nextInt(2)].send(flit);
                            counts[0]++;
                        }
                    }
                    long gap = rng.nextInt(4) == 0 ? rng.nextInt(1, 30) : rng.nextInt(2_000, 9_000);
                    next = cutAt >= 0 && cycle < cutAt && cycle + gap > cutAt ? cutAt : cycle + gap;
                }
            });
            f.run(cycles);
            f.sync();
            List<String> state = new ArrayList<>();
            for (Chip c : List.of(a, b)) {
                for (String s : c.sim().signalNames()) {
                    state.add(c + "." + s + "=" + c.sim().peekBig(s).toString(16));
                }
            }
            return new Run(trace, state, f.chipEvaluations(), f.processedCycles(), counts[0], counts[1], ab.bitErrors());
        }
    }

    @Test
    void idleLinksSleepAndSleepingGivesExactlyTheSteppedResults() {
        long cycles = 60_000;
        Run stepped = run(1, cycles, true, 1, 0, -1);
        Run sleeping = run(1, cycles, false, 1, 0, -1);
        Run twoThreads = run(1, cycles, false, 2, 0, -1);
        assertThat(sleeping.trace()).containsExactlyElementsOf(stepped.trace());
        assertThat(sleeping.state()).containsExactlyElementsOf(stepped.state());
        assertThat(twoThreads.trace()).containsExactlyElementsOf(stepped.trace());
        assertThat(twoThreads.state()).containsExactlyElementsOf(stepped.state());
        System.out.printf("stepped %d evaluations, sleeping %d evaluations in %d processed cycles, %d flits%n", stepped.evaluations(), sleeping.evaluations(), sleeping.processed(), stepped.sent());
        assertThat(stepped.evaluations()).isEqualTo(2 * cycles);
        assertThat(stepped.received()).as("every flit sent arrived").isEqualTo(stepped.sent()).isGreaterThan(50);
        // links up and idle between bursts: both chips asleep most of the time
        assertThat(sleeping.evaluations()).isLessThan(stepped.evaluations() / 10);
        assertThat(sleeping.processed()).isLessThan(cycles / 10);
        assertThat(stepped.state()).contains("a.linkPort.status_handshakes=1", "b.linkPort.status_handshakes=1",
                "b.linkPort.status_neighbour=101010300", "a.linkPort.status_neighbour=102021101");
    }

    @Test
    void bitErrorsAndACutGiveTheSameResultsAsleepAndStepped() {
        long cycles = 40_000;
        Run stepped = run(2, cycles, true, 1, 2e-4, 12_000);
        Run sleeping = run(2, cycles, false, 2, 2e-4, 12_000);
        assertThat(sleeping.trace()).containsExactlyElementsOf(stepped.trace());
        assertThat(sleeping.state()).containsExactlyElementsOf(stepped.state());
        assertThat(stepped.bitErrors()).isEqualTo(sleeping.bitErrors()).isPositive();
        assertThat(stepped.received()).isEqualTo(stepped.sent());
        assertThat(stepped.state()).contains("b.linkPort.status_handshakes=2", "a.linkPort.status_linkDownEvents=1");
        assertThat(sleeping.evaluations()).isLessThan(stepped.evaluations() / 2);
    }
}
