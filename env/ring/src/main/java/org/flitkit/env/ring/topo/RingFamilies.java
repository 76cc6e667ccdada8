package org.flitkit.env.ring.topo;

import java.util.List;

/**
 * The growable families of near-optimal duplex multi-rings listed as design inputs in "Multi-rings and distributed
 * full switches", section "Non-switched multi-rings": two multi-rings for each of N = 16, 32, 64, 128.
 */
public final class RingFamilies {
    private RingFamilies() {
    }

    /** N and its duplex step list, as {@code ./hdl multiring capacity --nodes N --steps S} takes them. */
    public record Member(int nodes, String steps) {
        public MultiRing rings() {
            return MultiRing.parse(nodes, steps);
        }
    }

    public static final List<Member> SPEC = List.of(
            new Member(16, "1,3"), new Member(16, "1,2,3"),
            new Member(32, "1,2,3"), new Member(32, "1,2,3,7"),
            new Member(64, "1,2,3,7"), new Member(64, "1,2,3,5,7"),
            new Member(128, "1,2,3,5,7"), new Member(128, "1,2,3,5,7,9"));
}
