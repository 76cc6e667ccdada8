package org.flitkit.env.ring.topo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Ring generators, schedules and capacities against values worked out by hand (docs/multiring.md, "Definitions used"). */
class RingScheduleTest {
    private static final double EXACT = 1e-12;

    @Test
    void hopsOfARouteOnEachRing() {
        MultiRing m = MultiRing.parse(16, "1,3");
        assertThat(m.label()).isEqualTo("{+-1,+-3}");
        assertThat(m.rings()).isEqualTo(4);
        // ring +3: 3k = 2 (mod 16) -> k = 6; ring -3 (step 13): 13k = 2 -> k = 10; ring -1: 15 hops
        assertThat(new int[] {m.hops(2, 0), m.hops(2, 1), m.hops(2, 2), m.hops(2, 3)}).containsExactly(2, 14, 6, 10);
        MultiRing mini = MultiRing.parse(8, "+1,+2");
        assertThat(mini.hops(3, 1)).isZero(); // ring +2 splits into the even and the odd mini-ring
        assertThat(mini.hops(6, 1)).isEqualTo(3);
    }

    @Test
    void shortestScheduleOfAHandWorkedCase() {
        // N=5, rings +1 and +2. Hops on +2: k = 3r mod 5 -> r1:3 r2:1 r3:4 r4:2.
        // shortest: r1,r3 on +1 (1+3 = 4), r2,r4 on +2 (1+2 = 3): L_max = 4, C = 5*4/4 = 5,
        // naive = 5*2/4 + 5*2/3 = 35/6.
        Capacity c = RingSchedule.shortest(MultiRing.parse(5, "+1,+2")).capacity();
        assertThat(c.loads()).containsExactly(4.0, 3.0);
        assertThat(c.effective()).isEqualTo(5.0);
        assertThat(c.naiveSum()).isCloseTo(35.0 / 6, within(EXACT));
    }

    @Test
    void tiesAreSplitEqually() {
        // N=4, +-1: route 2 is 2 hops on both rings, half on each: L = 1 + 2/2 = 2 each, C = 4*3/2 = 6
        RingSchedule s = RingSchedule.shortest(MultiRing.parse(4, "1"));
        assertThat(s.share(2, 0)).isEqualTo(0.5);
        assertThat(s.share(2, 1)).isEqualTo(0.5);
        assertThat(s.capacity().loads()).containsExactly(2.0, 2.0);
        assertThat(s.capacity().effective()).isEqualTo(6.0);
    }

    @Test
    void balancedMovesTheCheapestRouteUntilTheLoadsAreEqual() {
        // from L = (4, 3): route 3 (4/3 hops ratio, cheaper than route 1's 3/1) moves 1/7 to +2:
        // L = 4 - 3/7 = 3 + 4/7 = 25/7, C = 20 / (25/7) = 5.6
        RingSchedule s = RingSchedule.balanced(MultiRing.parse(5, "+1,+2"));
        assertThat(s.share(3, 1)).isCloseTo(1.0 / 7, within(EXACT));
        assertThat(s.share(1, 1)).isZero();
        assertThat(s.capacity().maxLoad()).isCloseTo(25.0 / 7, within(EXACT));
        assertThat(s.capacity().effective()).isCloseTo(5.6, within(EXACT));
    }

    @Test
    void aSingleRingCarriesTwoPacketsPerSlotTime() {
        // c = N / L with L = N/2: 2 whatever N
        assertThat(RingSchedule.shortest(MultiRing.parse(12, "+1")).capacity().effective()).isEqualTo(2.0);
    }

    @Test
    void badStepListsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> MultiRing.parse(16, "2,4")).hasMessage("no ring reaches route 1 (node 0 to node 1): every step shares a factor with 16");
        assertThatThrownBy(() -> MultiRing.parse(16, "1,17")).hasMessage("step '17' is outside 1..15 for 16 nodes");
        assertThatThrownBy(() -> MultiRing.parse(16, "1,+15")).hasMessage("step -1 given twice: the rings of a multi-ring are distinct");
        assertThatThrownBy(() -> MultiRing.parse(16, "1,x")).hasMessage("step 'x' is not a number (use 3, +-3, +3 or -3)");
        assertThatThrownBy(() -> RingSchedule.named("fastest", MultiRing.parse(8, "1"))).hasMessage("unknown schedule 'fastest'; use shortest or balanced");
    }

    @Test
    void theSearchFindsTheDuplexPairThatBeatsTheOrdinaryRing() {
        // N=8, 2 pairs: {+-1,+-3} and the others ranked by C of the shortest schedule
        MultiRingSearch.Candidate best = MultiRingSearch.best(8, 2, 1).get(0);
        assertThat(best.shortestCapacity()).isEqualTo(RingSchedule.shortest(best.rings()).capacity().effective());
        assertThat(best.rings().label()).isEqualTo("{+-1,+-3}");
    }
}
