package org.flitkit.env.ring.topo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The spec's applications as configurations ("Multi-rings and distributed full switches", sections "Non-switched
 * multi-rings", "Distributed full switches" and "Sparse multi-rings"): the Gemini torus dimensions with their identical
 * rings replaced by multi-rings, the Blue Waters supernode variants, and sparse multi-rings; every count is derived
 * here from the configuration inputs.
 */
public final class Applications {
    /** Cray Gemini torus inputs: z has 16 nodes and 2 identical duplex rings, x and y 32 nodes and 4. */
    public record TorusDimension(String name, int nodes, int identicalDuplexRings, String multiRingSteps) {
    }

    public static final List<TorusDimension> GEMINI = List.of(
            new TorusDimension("z", 16, 2, "1,3"),
            new TorusDimension("x", 32, 4, "1,2,3,7"),
            new TorusDimension("y", 32, 4, "1,2,3,7"));
    /** Blue Waters inputs: nodes per supernode, supernodes, K1 copper links per node, K2 and K3 optical links per supernode. */
    public static final int BW_SUPERNODE = 32;
    public static final int BW_SUPERNODES = 513;
    public static final int BW_K1 = 7;
    public static final int BW_K2 = 24;
    public static final int BW_K3 = 16;
    /** The spec's M for the quasi-complete graph between supernodes: links per supernode and nodes per supernode. */
    public static final int BW_M = 38;

    private Applications() {
    }

    /** Per Gemini dimension: C of the identical rings (each a ring pair +-1 carrying an equal share) against the multi-ring. */
    public static List<String> gemini() {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "%-4s %5s %-24s %12s %-16s %12s %12s %8s", "dim", "N", "identical rings", "C identical", "multi-ring",
                "C shortest", "C balanced", "gain"));
        for (TorusDimension d : GEMINI) {
            out.add(row(d.name(), d.nodes(), d.identicalDuplexRings(), d.multiRingSteps()));
        }
        // the +-2 rings of N = 32 split into mini-rings; the spec's alternatives
        out.add(row("x'", 37, 4, "1,2,3,7"));
        out.add(row("x''", 64, 4, "1,2,3,7"));
        for (TorusDimension d : GEMINI) {
            MultiRing m = MultiRing.parse(d.nodes(), d.multiRingSteps());
            for (int j = 0; j < m.rings(); j++) {
                int g = gcd(m.step(j), d.nodes());
                if (g > 1 && 2 * m.step(j) <= d.nodes()) {
                    out.add(String.format(Locale.ROOT, "note: in %s (N=%d) the rings +-%d split into %d mini-rings of %d nodes", d.name(), d.nodes(),
                            m.step(j), g, d.nodes() / g));
                }
            }
        }
        return out;
    }

    private static String row(String name, int nodes, int copies, String steps) {
        double single = RingSchedule.shortest(MultiRing.parse(nodes, "1")).capacity().effective();
        MultiRing m = MultiRing.parse(nodes, steps);
        double sh = RingSchedule.shortest(m).capacity().effective();
        double bal = RingSchedule.balanced(m).capacity().effective();
        return String.format(Locale.ROOT, "%-4s %5d %-24s %12.4f %-16s %12.4f %12.4f %7.2fx", name, nodes, copies + " x {+-1}", copies * single,
                m.label(), sh, bal, bal / (copies * single));
    }

    /** Blue Waters supernode and system variants: baseline, the K1 switch inside a supernode, quasi-complete graphs between supernodes. */
    public static List<String> blueWaters() {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "baseline: %d supernodes x %d nodes = %,d nodes", BW_SUPERNODES, BW_SUPERNODE, BW_SUPERNODES * BW_SUPERNODE));
        QuasiCompleteDigraph d = new QuasiCompleteDigraph(BW_K1);
        out.add(String.format(Locale.ROOT, "a %dx%d K1 switch per node: quasi-complete digraph supernode of %d nodes (validated: one path of length 2 "
                + "between any two)", BW_K1, BW_K1, d.nodes()));
        for (int a = 1; a <= 2; a++) {
            out.add("  K1 block design with m=" + BW_K1 + ", a=" + a + ": " + DesignExistence.of(BW_K1, a));
        }
        int links = BW_K2 + BW_K3;
        out.add(supernodeGraph("all K2+K3 links of a supernode", links, BW_SUPERNODE));
        out.add(supernodeGraph("M=" + BW_M + " links and nodes per supernode", BW_M, BW_M));
        return out;
    }

    private static String supernodeGraph(String what, int links, int nodesPerSupernode) {
        int n = links * (links - 1) + 1;
        DesignExistence.Verdict v = DesignExistence.of(links, 1);
        return String.format(Locale.ROOT, "quasi-complete graph between supernodes, %s (m=%d): %,d supernodes x %d nodes = %,d nodes (%.1fx the "
                + "baseline); B(%d,%d,1) %s", what, links, n, nodesPerSupernode, (long) n * nodesPerSupernode,
                (double) n * nodesPerSupernode / (BW_SUPERNODES * BW_SUPERNODE), n, links, v.status());
    }

    /** Sparse multi-rings: N = m(m-1)+1 duplex rings of K subscribers, each cut into parts of m ports: about N K / m subscribers. */
    public static List<String> sparse() {
        List<String> out = new ArrayList<>();
        int[][] cases = {{2, 10}, {4, 12}};
        for (int[] c : cases) {
            int m = c[0];
            int k = c[1];
            int rings = m * (m - 1) + 1;
            out.add(String.format(Locale.ROOT, "m=%d: %d duplex rings of %d subscribers -> %d subscribers with %d duplex ports each", m, rings, k,
                    rings * k / m, 2 * m));
        }
        return out;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
