package org.flitkit.env.ring.topo;

/**
 * The switch side of a distributed full switch ("Multi-rings and distributed full switches", section "Distributed full
 * switches"): N switches of m x m between N subscribers; switch i's input port j comes from subscriber from(i, j), its
 * output port j goes to to(i, j), and {@link #via} is the switch a source picks to reach a destination.
 */
public interface SwitchGraph {
    int nodes();

    int ports();

    int from(int sw, int port);

    int to(int sw, int port);

    /** The switch on the source's path of length 2 to dst (one of them when there are several). */
    int via(int src, int dst);

    /** A one-line name for reports. */
    String describe();
}
