package org.flitkit.env.ring;

import org.flitkit.env.ring.topo.QuasiCompleteDigraph;
import org.flitkit.rtl.ring.DfsSwitch;

/**
 * One 4 x 4 switch of the distributed full switch on 16 subscribers (quasi-complete digraph, m = 4), for
 * {@code ./hdl verilog --class} and {@code ./hdl sim --class} (docs/multiring.md, "RTL").
 */
public final class ExampleDfsSwitch extends DfsSwitch {
    private static final QuasiCompleteDigraph GRAPH = new QuasiCompleteDigraph(4);

    public ExampleDfsSwitch() {
        super(GRAPH.ports(), 4, GRAPH.nodes(), routes());
    }

    /** Port j of switch 0 reaches subscriber to(0, j); the others are reached by no port (value m). */
    private static long[] routes() {
        long[] route = new long[GRAPH.nodes()];
        java.util.Arrays.fill(route, GRAPH.ports());
        for (int j = 0; j < GRAPH.ports(); j++) {
            route[GRAPH.to(0, j)] = j;
        }
        return route;
    }
}
