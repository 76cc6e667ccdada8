package org.flitkit.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Circuit;
import org.flitkit.hdl.lib.Lfsr;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/** The cable model on its own: lane cables (delay, errors, cut) and credit cables (credits, loss). docs/cable.md. */
class CableTest {

    @Test
    void badParametersGetClearErrors() {
        assertThatThrownBy(() -> Circuit.elaborate(() -> new Cable(CableOptions.lanes(264, 8, 0).withLatency(0, 3))))
                .hasMessageContaining("latency must be 1..4096");
        assertThatThrownBy(() -> CableOptions.lanes(20, 8, 3)).hasMessageContaining("positive multiple of the 8 lanes, got 20");
        assertThatThrownBy(() -> CableOptions.credits(8, 0)).hasMessageContaining("latency must be 1..10000 cycles, got 0");
        assertThatThrownBy(() -> CableOptions.credits(8, 3).withDepth(0)).hasMessageContaining("depth must be 1..65536 flits, got 0");
        assertThatThrownBy(() -> CableOptions.credits(8, 3).withLatency(3, 4)).hasMessageContaining("latencyBA must equal latency");
        assertThatThrownBy(() -> CableOptions.credits(8, 3).withLoss(70_000)).hasMessageContaining("loss must be 0..65535");
        assertThatThrownBy(() -> CableOptions.lanes(16, 8, 3).withLoss(5)).hasMessageContaining("loss needs a credit cable");
        assertThatThrownBy(() -> CableOptions.credits(8, 3).withSeed(0)).hasMessageContaining("non-zero 16-bit");
    }

    @Test
    void cableDelaysEachDirectionXorsTheMaskAndCutsToZeros() {
        Simulator sim = Simulator.of(() -> new Cable(CableOptions.lanes(16, 8, 3).withLatency(3, 5)));
        Cable c = (Cable) sim.circuit().top();
        sim.reset(1);
        long[] ab = new long[12];
        long[] ba = new long[12];
        for (int t = 0; t < 12; t++) {
            sim.poke(c.aTx, 0x100 + t);
            sim.poke(c.bTx, 0x200 + t);
            sim.poke(c.errorAB, t == 2 ? 0x8001 : 0);
            sim.poke(c.cutBA, t == 4);
            ab[t] = sim.peek(c.bRx);
            ba[t] = sim.peek(c.aRx);
            sim.step();
        }
        assertThat(ab[3]).isEqualTo(0x100);
        assertThat(ab[5]).isEqualTo((0x102) ^ 0x8001);
        assertThat(ab[6]).isEqualTo(0x103);
        assertThat(ba[5]).isEqualTo(0x200);
        assertThat(ba[9]).isZero();
        assertThat(ba[10]).isEqualTo(0x205);
    }

    @Test
    void deadLanesDeliverZerosOnTheirBitsOnly() {
        Simulator sim = Simulator.of(() -> new Cable(CableOptions.lanes(16, 8, 1)));
        Cable c = (Cable) sim.circuit().top();
        sim.reset(1);
        sim.poke(c.aTx, 0xFFFF);
        sim.poke(c.lanesDownAB, 0b0000_0101);
        sim.step();
        // lane i is the frame's bits 2i+1..2i
        assertThat(sim.peek(c.bRx)).isEqualTo(0xFFCC);
    }

    /**
     * Flits 1..n offered every cycle, flit 4 with bit 7 flipped on entry; the receiver takes while {@code ready(t)};
     * returns the cycle each flit arrived and adds its value to {@code values}.
     */
    private static List<Long> run(Cable c, Simulator sim, int n, java.util.function.IntPredicate ready, int cycles, List<Long> values) {
        sim.reset(1);
        List<Long> at = new ArrayList<>();
        int next = 1;
        for (int t = 0; t < cycles; t++) {
            sim.poke(c.in.valid, next <= n);
            sim.poke(c.in.bits, next);
            sim.poke(c.flip, next == 4 ? 0x80 : 0);
            boolean r = ready.test(t);
            sim.poke(c.out.ready, r);
            if (r && sim.peek(c.out.valid) == 1) {
                at.add((long) t);
                values.add(sim.peek(c.out.bits));
            }
            if (next <= n && sim.peek(c.in.ready) == 1) {
                next++;
            }
            sim.step();
        }
        return at;
    }

    @Test
    void creditCableDeliversAtLatencyAtFullRateAndFlipsBits() {
        Simulator sim = Simulator.of(() -> new Cable(CableOptions.credits(8, 4)));
        Cable c = (Cable) sim.circuit().top();
        List<Long> values = new ArrayList<>();
        List<Long> at = run(c, sim, 6, t -> true, 14, values);
        assertThat(at).containsExactly(4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(values).containsExactly(1L, 2L, 3L, 4L ^ 0x80, 5L, 6L);
        assertThat(sim.peek(c.idle)).isEqualTo(1);
    }

    @Test
    void aStalledReceiverStopsTheSenderWhenTheCreditsRunOut() {
        Simulator sim = Simulator.of(() -> new Cable(CableOptions.credits(8, 2).withDepth(3).withCreditLatency(2)));
        Cable c = (Cable) sim.circuit().top();
        List<Long> values = new ArrayList<>();
        // the receiver sleeps until cycle 10: three flits (the depth) wait at the far end, the fourth waits for a credit
        List<Long> at = run(c, sim, 5, t -> t >= 10, 20, values);
        // three buffered flits go at 10..12; the credit of the first is back at 13, so flit 4 is sent at 13, arrives at 15
        assertThat(at).containsExactly(10L, 11L, 12L, 15L, 16L);
        assertThat(values).containsExactly(1L, 2L, 3L, 4L ^ 0x80, 5L);
    }

    @Test
    void seededLossDropsTheFlitsTheLfsrDrawsAndCountsThem() {
        int loss = 20_000;
        int seed = 0x1234;
        Simulator sim = Simulator.of(() -> new Cable(CableOptions.credits(8, 2).withLoss(loss).withSeed(seed)));
        Cable c = (Cable) sim.circuit().top();
        List<Long> values = new ArrayList<>();
        run(c, sim, 40, t -> true, 60, values);
        // the reference: each arrival draws the LFSR's state, then the LFSR steps
        List<Long> expected = new ArrayList<>();
        long s = seed;
        for (long f = 1; f <= 40; f++) {
            if (s > loss) {
                expected.add(f == 4 ? f ^ 0x80 : f);
            }
            s = Lfsr.nextFibonacci(16, s);
        }
        assertThat(values).containsExactlyElementsOf(expected);
        assertThat(sim.peek(c.lost)).isEqualTo(40 - expected.size());
        assertThat(40 - expected.size()).isPositive();
        assertThat(sim.peek(c.idle)).isEqualTo(1);
    }

    @Test
    void seededReorderingHoldsTheDrawnFlitsUntilTheNextCycleWithoutAnArrival() {
        int reorder = 30_000;
        int seed = 0x1234;
        Simulator sim = Simulator.of(() -> new Cable(CableOptions.credits(8, 2).withReorder(reorder).withSeed(seed)));
        Cable c = (Cable) sim.circuit().top();
        sim.reset(1);
        // the sender offers on two cycles of three; the receiver is always ready
        List<Long> got = new ArrayList<>();
        int next = 1;
        for (int t = 0; t < 80; t++) {
            boolean offer = next <= 40 && t % 3 != 2;
            sim.poke(c.in.valid, offer);
            sim.poke(c.in.bits, next);
            sim.poke(c.flip, 0);
            sim.poke(c.out.ready, true);
            if (sim.peek(c.out.valid) == 1) {
                got.add(sim.peek(c.out.bits));
            }
            if (offer) {
                assertThat(sim.peek(c.in.ready)).as("cycle %d: the held flit keeps a credit, the others suffice", t).isEqualTo(1);
                next++;
            }
            sim.step();
        }
        // the reference: the far end sees the sender's pattern; a drawn arrival waits for the next cycle without one
        List<Long> expected = new ArrayList<>();
        long s = seed;
        long held = 0;
        int kept = 0;
        long f = 1;
        for (int t = 0; f <= 40 || held != 0; t++) {
            boolean arrival = f <= 40 && t % 3 != 2;
            if (arrival) {
                if (held == 0 && s > 65_535 - reorder) {
                    held = f;
                    kept++;
                } else {
                    expected.add(f);
                }
                s = Lfsr.nextFibonacci(16, s);
                f++;
            } else if (held != 0) {
                expected.add(held);
                held = 0;
            }
        }
        assertThat(got).containsExactlyElementsOf(expected);
        assertThat(got).isNotEqualTo(expected.stream().sorted().toList());
        assertThat(sim.peek(c.reordered)).isEqualTo(kept);
        assertThat(sim.peek(c.idle)).isEqualTo(1);
    }

    @Test
    void reorderingIsRefusedWhereItHasNoMeaning() {
        assertThatThrownBy(() -> CableOptions.credits(8, 2).withLoss(60_000).withReorder(6_000))
                .hasMessageContaining("reorder must be 0..5535 flits out of 65535 (with loss 60000), got 6000");
        assertThatThrownBy(() -> CableOptions.credits(8, 2).withVcs(2).withReorder(5)).hasMessageContaining("one-VC credit cable without packets, got 2 VCs");
        assertThatThrownBy(() -> CableOptions.lanes(16, 8, 2).withReorder(5)).hasMessageContaining("got a lane cable");
    }
}
