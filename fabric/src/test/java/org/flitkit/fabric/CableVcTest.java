package org.flitkit.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/**
 * Credit cables with virtual channels: a VC flows past a blocked one, round robin over the VCs, a packet keeps
 * its VC on the wire, each VC's flits in order. docs/cable.md, "Virtual channels".
 */
class CableVcTest {
    static final int W = 9;
    static final int LAST = 1 << (W - 1);

    /** Offers each VC's queued flits every cycle; records, per cycle, the VC that went on the wire (-1: none). */
    static final class Run {
        final Simulator sim;
        final Cable c;
        final List<ArrayDeque<Long>> offer = new ArrayList<>();
        final List<List<Long>> got = new ArrayList<>();
        final List<Integer> wire = new ArrayList<>();

        Run(CableOptions o) {
            sim = Simulator.of(() -> new Cable(o));
            c = (Cable) sim.circuit().top();
            for (int v = 0; v < o.vcs(); v++) {
                offer.add(new ArrayDeque<>());
                got.add(new ArrayList<>());
            }
            sim.reset(1);
        }

        void run(int cycles, boolean[] ready) {
            for (int t = 0; t < cycles; t++) {
                int sent = -1;
                for (int v = 0; v < offer.size(); v++) {
                    sim.poke(c.vcIn.get(v).valid, !offer.get(v).isEmpty());
                    sim.poke(c.vcIn.get(v).bits, offer.get(v).isEmpty() ? 0 : offer.get(v).peek());
                    sim.poke(c.vcOut.get(v).ready, ready[v]);
                }
                sim.poke(c.flip, 0);
                for (int v = 0; v < offer.size(); v++) {
                    if (ready[v] && sim.peek(c.vcOut.get(v).valid) == 1) {
                        got.get(v).add(sim.peek(c.vcOut.get(v).bits));
                    }
                    if (!offer.get(v).isEmpty() && sim.peek(c.vcIn.get(v).ready) == 1) {
                        assertThat(sent).as("one flit per cycle on the wire").isEqualTo(-1);
                        sent = v;
                        offer.get(v).poll();
                    }
                }
                wire.add(sent);
                sim.step();
            }
        }
    }

    @Test
    void optionsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> CableOptions.credits(W, 2).withVcs(9)).hasMessageContaining("VCs must be 1..8, got 9");
        assertThatThrownBy(() -> CableOptions.lanes(16, 8, 2).withVcs(2)).hasMessageContaining("VCs and packets need a credit cable");
        assertThatThrownBy(() -> CableOptions.credits(1, 2).withPackets()).hasMessageContaining("needs a last-flit bit");
    }

    @Test
    void aVcFlowsPastABlockedOne() {
        Run r = new Run(CableOptions.credits(W, 3).withDepth(4).withCreditLatency(2).withVcs(2));
        for (long i = 0; i < 10; i++) {
            r.offer.get(0).add(i);
            r.offer.get(1).add(100 + i);
        }
        r.run(60, new boolean[] {false, true});
        // VC 0's receiver takes nothing: exactly one buffer of flits, then no credits
        assertThat(r.sim.peek(r.c.vcFlits.get(0))).isEqualTo(4);
        assertThat(r.sim.peek(r.c.buffered.get(0))).isEqualTo(4);
        assertThat(r.sim.peek(r.c.credits.get(0))).isZero();
        assertThat(r.got.get(1)).containsExactly(100L, 101L, 102L, 103L, 104L, 105L, 106L, 107L, 108L, 109L);
        assertThat(r.sim.peek(r.c.credits.get(1))).isEqualTo(4);
        assertThat(r.sim.peek(r.c.flits)).isEqualTo(14);
        assertThat(r.sim.peek(r.c.idle)).isZero();
    }

    @Test
    void threeVcsTakeTheWireInTurn() {
        Run r = new Run(CableOptions.credits(W, 2).withVcs(3).withDepth(8));
        for (long i = 0; i < 3; i++) {
            for (int v = 0; v < 3; v++) {
                r.offer.get(v).add(10L * v + i);
            }
        }
        r.offer.get(2).add(29L);
        r.run(16, new boolean[] {true, true, true});
        assertThat(r.wire.subList(0, 11)).containsExactly(0, 1, 2, 0, 1, 2, 0, 1, 2, 2, -1);
        assertThat(r.got.get(0)).containsExactly(0L, 1L, 2L);
        assertThat(r.got.get(2)).containsExactly(20L, 21L, 22L, 29L);
        assertThat(r.sim.peek(r.c.idle)).isEqualTo(1);
    }

    @Test
    void aPacketKeepsItsVcOnTheWireUntilItsLastFlit() {
        Run r = new Run(CableOptions.credits(W, 2).withVcs(2).withDepth(8).withPackets());
        for (int v = 0; v < 2; v++) {
            for (long p = 0; p < 2; p++) {
                r.offer.get(v).add(v * 100 + p * 10);
                r.offer.get(v).add(v * 100 + p * 10 + 1);
                r.offer.get(v).add(v * 100 + p * 10 + 2 | LAST);
            }
        }
        r.run(20, new boolean[] {true, true});
        assertThat(r.wire.subList(0, 13)).containsExactly(0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, -1);
        assertThat(r.got.get(1)).containsExactly(100L, 101L, 102L | LAST, 110L, 111L, 112L | LAST);
    }

    @Test
    void aPacketStalledForCreditsLetsTheOtherVcUseTheWire() {
        // VC 0 has two credits and a 4-flit packet whose receiver takes nothing: after two flits it waits, VC 1 goes
        Run r = new Run(CableOptions.credits(W, 2).withVcs(2).withDepth(2).withPackets());
        r.offer.get(0).addAll(List.of(0L, 1L, 2L, 3L | LAST));
        r.offer.get(1).addAll(List.of(100L, 101L | LAST));
        r.run(12, new boolean[] {false, true});
        assertThat(r.wire.subList(0, 5)).containsExactly(0, 0, 1, 1, -1);
        assertThat(r.got.get(1)).containsExactly(100L, 101L | LAST);
        assertThat(r.sim.peek(r.c.buffered.get(0))).isEqualTo(2);
    }
}
