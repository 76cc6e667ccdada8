package org.flitkit.env.ring;

import static org.assertj.core.api.Assertions.assertThat;

import org.flitkit.env.ring.topo.MultiRing;
import org.flitkit.env.ring.topo.RingSchedule;
import org.flitkit.rtl.ring.RingKind;
import org.flitkit.testbench.RunConfig;
import org.junit.jupiter.api.Test;

/** The slotted multi-ring RTL at saturation against the analytic capacity (docs/multiring.md, "Measured saturation against C"). */
class RingSaturationTest {
    @Test
    void aSaturatedSingleRingKeepsEverySlotFull() {
        // one ring of 8: every slot full on every measured cycle, whatever the destinations; C = 2
        RingSaturation.Measured r = RingSaturation.run(RingSchedule.shortest(MultiRing.parse(8, "+1")), RingKind.SLOTTED, -1, 16, new RunConfig(3, 1_500, null));
        assertThat(r.busySlots()[0]).isEqualTo(8L * 1_500);
        assertThat(r.analytic().effective()).isEqualTo(2.0);
        assertThat(r.delivered()).isEqualTo(3_037); // this seed: 2.025 per cycle
    }

    @Test
    void aDuplexMultiRingReachesItsEffectiveCapacityAndDeliversEveryPacket() {
        // N=8, +-1,+-3, shortest: route 1 on +1, 3 on +3, 5 on -3, 7 on -1 (1 hop each), routes 2 and 6 split over two
        // rings (2 hops), route 4 over all four (4 hops): every L_j = 1 + 2/2 + 4/4 = 3, C = 8*7/3.
        // Every packet sent arrives (the scoreboard drains at the end).
        RingSaturation.Measured r = RingSaturation.run(RingSchedule.shortest(MultiRing.parse(8, "1,3")), RingKind.SLOTTED, -1, 16, new RunConfig(5, 1_500, null));
        assertThat(r.analytic().effective()).isEqualTo(56.0 / 3);
        // this seed: 17.83 per cycle, 0.955 C: all four rings are equally loaded, so a station's lanes often all wait for
        // one full queue while another ring's queue runs dry (docs/multiring.md, "Measured saturation against C")
        assertThat(r.delivered()).isEqualTo(26_742);
    }
}
