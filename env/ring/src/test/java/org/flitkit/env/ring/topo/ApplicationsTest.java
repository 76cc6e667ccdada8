package org.flitkit.env.ring.topo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The applications' derived counts (docs/multiring.md, "Applications"). */
class ApplicationsTest {
    @Test
    void geminiDimensionsGainFromDifferentSteps() {
        // z: 2 identical duplex rings of 16 carry 2 x 7.5 = 15; {+-1,+-3} balanced 240/11
        assertThat(Applications.gemini().get(1)).isEqualTo(
                "z       16 2 x {+-1}                     15.0000 {+-1,+-3}             20.0000      21.8182    1.45x");
        assertThat(Applications.gemini()).contains("note: in x (N=32) the rings +-2 split into 2 mini-rings of 16 nodes");
    }

    @Test
    void blueWatersSupernodesAndSparseMultiRings() {
        assertThat(Applications.blueWaters()).contains("baseline: 513 supernodes x 32 nodes = 16,416 nodes")
                .anyMatch(l -> l.startsWith("quasi-complete graph between supernodes, M=38 links and nodes per supernode (m=38): 1,407 supernodes x 38 "
                        + "nodes = 53,466 nodes (3.3x the baseline); B(1407,38,1) CONSTRUCTED"));
        assertThat(Applications.sparse()).containsExactly("m=2: 3 duplex rings of 10 subscribers -> 15 subscribers with 4 duplex ports each",
                "m=4: 13 duplex rings of 12 subscribers -> 39 subscribers with 8 duplex ports each");
    }
}
