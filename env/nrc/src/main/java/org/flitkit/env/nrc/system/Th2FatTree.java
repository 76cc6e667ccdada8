package org.flitkit.env.nrc.system;

import java.util.ArrayList;
import java.util.List;

/**
 * The TH-2 fat tree as cables between chip ports: bottom switches (6 NRCs, 32 node ports, 20 uplinks; four per
 * compute cabinet, one per frame), leaf switches (1 NRC: 12 ports down, 12 up; 20 per leaf group, 3 groups per leaf cabinet) and
 * root switches (6 NRCs, 48 ports; 30 per root cabinet). The paper gives the switch sizes and cabinet counts; how
 * ports are wired inside a switch and between levels is decided here, once (docs/th2-fabric.md). Spec:
 * 20-th2-management.md, "The system".
 */
public final class Th2FatTree {
    /** NRC ports (24) and the parts of the tree, as the paper sizes them */
    public static final int PORTS = 24;
    public static final int BOTTOMS_PER_CABINET = 4;
    public static final int NODES_PER_BOTTOM = 32;
    public static final int UPLINKS = 20;
    public static final int LEAF_DOWN = 12;
    public static final int LEAF_UP = 12;
    public static final int GROUPS_PER_LEAF_CABINET = 3;
    public static final int ROOTS_PER_CABINET = 30;
    public static final int ROOT_PORTS = 48;
    /** the full machine: 143 compute cabinets */
    public static final int TH2_CABINETS = 143;
    /**
     * A bottom switch: 4 lower NRCs with 8 node ports each (ports 0..7) and 2 upper NRCs with 10 uplinks each (ports
     * 0..9); lower i has 4 cables to upper i mod 2 and 3 to the other (ports 8..14), filling the uppers' ports 10..23
     */
    static final int BOTTOM_LOWER = 4;
    static final int BOTTOM_UPPER = 2;
    static final int LOWER_NODES = NODES_PER_BOTTOM / BOTTOM_LOWER;
    static final int UPPER_UPLINKS = UPLINKS / BOTTOM_UPPER;
    static final int[] LOWER_TO_UPPER = {4, 3};
    /** a root switch: 4 edge NRCs with 12 outside ports each, 2 middle NRCs; each edge has 6 cables to each middle */
    static final int ROOT_EDGES = 4;
    static final int ROOT_MIDDLES = 2;

    public enum Role {
        BOTTOM, LEAF, ROOT
    }

    /** NRC {@code index}: member {@code member} of switch {@code unit} of its level (a leaf switch has member 0). */
    public record Nrc(int index, Role role, int unit, int member) {
    }

    /** A cable between two NRC ports. */
    public record Cable(int a, int portA, int b, int portB) {
    }

    /** Node {@code index} (a compute node's NIC) hangs on {@code port} of NRC {@code nrc}. */
    public record Node(int index, int nrc, int port) {
    }

    private final int cabinets;
    private final int bottoms;
    private final int groups;
    private final int rootsPerPlane;
    private final List<Nrc> nrcs = new ArrayList<>();
    private final List<Cable> cables = new ArrayList<>();
    private final List<Node> nodes = new ArrayList<>();
    private final int leafBase;
    private final int rootBase;

    /** The whole machine: 143 compute cabinets, 48 leaf groups in 16 cabinets, 240 root switches in 8. */
    public static Th2FatTree th2() {
        return new Th2FatTree(TH2_CABINETS);
    }

    /** One frame: its bottom switch (6 NRCs) and 32 nodes, the 20 uplinks unplugged. */
    public static Th2FatTree frame() {
        return new Th2FatTree(0, 1);
    }

    /** The scaled configurations by name, smallest first: each a fat tree wired the same way. */
    public static final List<String> TOPOLOGIES = List.of("frame", "cabinet", "eighth", "th2");

    /**
     * {@code frame} (one bottom switch), {@code cabinet} (one compute cabinet with its leaf group and the roots its
     * leaves need), {@code eighth} (18 compute cabinets, an eighth of the machine rounded up), {@code th2} (the whole
     * machine).
     */
    public static Th2FatTree named(String name) {
        return switch (name) {
            case "frame" -> frame();
            case "cabinet" -> new Th2FatTree(1);
            case "eighth" -> new Th2FatTree((TH2_CABINETS + 7) / 8);
            case "th2" -> th2();
            default -> throw new IllegalArgumentException("unknown topology '" + name + "': one of " + String.join(", ", TOPOLOGIES));
        };
    }

    /**
     * A machine of {@code computeCabinets} compute cabinets, wired the same way: 4 bottom switches per cabinet, a
     * leaf group per 12 bottom switches (one leaf per uplink), and per uplink plane as many root switches as the
     * leaves' up ports need (1, 2, 3, 4, 6 or 12).
     */
    public Th2FatTree(int computeCabinets) {
        this(checkCabinets(computeCabinets), computeCabinets * BOTTOMS_PER_CABINET);
    }

    private static int checkCabinets(int computeCabinets) {
        if (computeCabinets < 1 || computeCabinets > TH2_CABINETS) {
            throw new IllegalArgumentException("compute cabinets must be 1.." + TH2_CABINETS + ", got " + computeCabinets);
        }
        return computeCabinets;
    }

    /** {@code computeCabinets} 0: one bottom switch alone (a frame), no leaves or roots. */
    private Th2FatTree(int computeCabinets, int bottomSwitches) {
        cabinets = computeCabinets;
        bottoms = bottomSwitches;
        groups = computeCabinets == 0 ? 0 : (bottoms + LEAF_DOWN - 1) / LEAF_DOWN;
        int roots = groups == 0 ? 0 : 1;
        while (roots > 0 && (groups * LEAF_UP > roots * ROOT_PORTS || LEAF_UP % roots != 0)) {
            roots++;
        }
        rootsPerPlane = roots;
        for (int b = 0; b < bottoms; b++) {
            for (int m = 0; m < BOTTOM_LOWER + BOTTOM_UPPER; m++) {
                nrcs.add(new Nrc(nrcs.size(), Role.BOTTOM, b, m));
            }
        }
        leafBase = nrcs.size();
        for (int l = 0; l < UPLINKS * groups; l++) {
            nrcs.add(new Nrc(nrcs.size(), Role.LEAF, l, 0));
        }
        rootBase = nrcs.size();
        for (int r = 0; r < UPLINKS * rootsPerPlane; r++) {
            for (int m = 0; m < ROOT_EDGES + ROOT_MIDDLES; m++) {
                nrcs.add(new Nrc(nrcs.size(), Role.ROOT, r, m));
            }
        }
        for (int b = 0; b < bottoms; b++) {
            wireBottom(b);
        }
        for (int k = 0; k < UPLINKS; k++) {
            for (int g = 0; g < groups; g++) {
                for (int u = 0; u < LEAF_UP; u++) {
                    int r = u % rootsPerPlane;
                    int rootPort = g * (LEAF_UP / rootsPerPlane) + u / rootsPerPlane;
                    cables.add(new Cable(leaf(k, g), LEAF_DOWN + u, rootEdge(k, r, rootPort), rootPort % LEAF_UP));
                }
            }
            for (int r = 0; r < rootsPerPlane; r++) {
                wireRoot(k, r);
            }
        }
    }

    /** Nodes on the lower NRCs, uplinks to the leaves of the bottom's group on the upper ones, and the cables between. */
    private void wireBottom(int b) {
        int base = b * (BOTTOM_LOWER + BOTTOM_UPPER);
        int[] upperNext = new int[BOTTOM_UPPER];
        for (int u = 0; u < BOTTOM_UPPER; u++) {
            for (int i = 0; i < UPPER_UPLINKS && groups > 0; i++) {
                cables.add(new Cable(base + BOTTOM_LOWER + u, i, leaf(u * UPPER_UPLINKS + i, b / LEAF_DOWN), b % LEAF_DOWN));
            }
            upperNext[u] = UPPER_UPLINKS;
        }
        for (int m = 0; m < BOTTOM_LOWER; m++) {
            int port = 0;
            for (int i = 0; i < LOWER_NODES; i++) {
                nodes.add(new Node(nodes.size(), base + m, port++));
            }
            for (int k = 0; k < BOTTOM_UPPER; k++) {
                int u = (m + k) % BOTTOM_UPPER;
                for (int i = 0; i < LOWER_TO_UPPER[k]; i++) {
                    cables.add(new Cable(base + m, port++, base + BOTTOM_LOWER + u, upperNext[u]++));
                }
            }
        }
    }

    /** Each edge NRC's ports 12..23 go 6 to each middle NRC. */
    private void wireRoot(int plane, int r) {
        int base = rootBase + (plane * rootsPerPlane + r) * (ROOT_EDGES + ROOT_MIDDLES);
        int per = LEAF_UP / ROOT_MIDDLES;
        for (int e = 0; e < ROOT_EDGES; e++) {
            for (int m = 0; m < ROOT_MIDDLES; m++) {
                for (int i = 0; i < per; i++) {
                    cables.add(new Cable(base + e, LEAF_UP + m * per + i, base + ROOT_EDGES + m, e * per + i));
                }
            }
        }
    }

    private int leaf(int plane, int group) {
        return leafBase + plane * groups + group;
    }

    /** The edge NRC of root switch r of a plane that holds root port {@code rootPort} (0..47). */
    private int rootEdge(int plane, int r, int rootPort) {
        return rootBase + (plane * rootsPerPlane + r) * (ROOT_EDGES + ROOT_MIDDLES) + rootPort / LEAF_UP;
    }

    /** Compute cabinets; 0 for a frame alone. */
    public int computeCabinets() {
        return cabinets;
    }

    public int bottomSwitches() {
        return bottoms;
    }

    public int leafSwitches() {
        return UPLINKS * groups;
    }

    public int rootSwitches() {
        return UPLINKS * rootsPerPlane;
    }

    /** The leaf group of leaf switch {@code unit} (leaf switches are numbered plane by plane, a group in each). */
    public int leafGroupOf(int unit) {
        if (unit < 0 || unit >= leafSwitches()) {
            throw new IllegalArgumentException("leaf switches are 0.." + (leafSwitches() - 1) + ", got " + unit);
        }
        return unit % groups;
    }

    /** Leaf cabinets (3 groups of 20 leaves each) and root cabinets (30 root switches each), rounded up. */
    public int leafCabinets() {
        return (groups + GROUPS_PER_LEAF_CABINET - 1) / GROUPS_PER_LEAF_CABINET;
    }

    public int rootCabinets() {
        return (rootSwitches() + ROOTS_PER_CABINET - 1) / ROOTS_PER_CABINET;
    }

    /**
     * A source route from node {@code node}'s NIC to an NRC {@code hops} NRCs away (1: the node's own NRC), the first
     * found breadth first: {@code forward} the output port at each NRC before the target, {@code backward} the output
     * port at each NRC from the target back to the node.
     */
    public record Route(int target, List<Integer> forward, List<Integer> backward) {
    }

    public Route routeFromNode(int node, int hops) {
        if (node < 0 || node >= nodes.size()) {
            throw new IllegalArgumentException("nodes are 0.." + (nodes.size() - 1) + ", got " + node);
        }
        Node n = nodes.get(node);
        int count = nrcs.size();
        // per NRC: {peer NRC, peer port} at each port (-1: no cable)
        int[][] peer = new int[count][PORTS];
        int[][] peerPort = new int[count][PORTS];
        for (int[] row : peer) {
            java.util.Arrays.fill(row, -1);
        }
        for (Cable c : cables) {
            peer[c.a()][c.portA()] = c.b();
            peerPort[c.a()][c.portA()] = c.portB();
            peer[c.b()][c.portB()] = c.a();
            peerPort[c.b()][c.portB()] = c.portA();
        }
        int[] dist = new int[count];
        int[] from = new int[count];
        int[] outPort = new int[count];
        int[] inPort = new int[count];
        java.util.Arrays.fill(dist, -1);
        dist[n.nrc()] = 0;
        java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>(List.of(n.nrc()));
        int target = dist[n.nrc()] == hops - 1 ? n.nrc() : -1;
        while (!queue.isEmpty() && target < 0) {
            int x = queue.poll();
            for (int p = 0; p < PORTS && target < 0; p++) {
                int y = peer[x][p];
                if (y >= 0 && dist[y] < 0) {
                    dist[y] = dist[x] + 1;
                    from[y] = x;
                    outPort[y] = p;
                    inPort[y] = peerPort[x][p];
                    queue.add(y);
                    if (dist[y] == hops - 1) {
                        target = y;
                    }
                }
            }
        }
        if (target < 0) {
            throw new IllegalArgumentException("no NRC is " + hops + " NRCs away from node " + node + " (1.." + (java.util.Arrays.stream(dist).max().getAsInt() + 1) + ")");
        }
        List<Integer> forward = new ArrayList<>();
        List<Integer> backward = new ArrayList<>();
        for (int y = target; y != n.nrc(); y = from[y]) {
            forward.add(0, outPort[y]);
            backward.add(inPort[y]);
        }
        backward.add(n.port());
        return new Route(target, List.copyOf(forward), List.copyOf(backward));
    }

    /** Hops from NRC {@code from} to every NRC over the cables, breadth first (-1: unreachable). */
    public int[] distancesFrom(int from) {
        int n = nrcs.size();
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            adj.add(new ArrayList<>());
        }
        for (Cable c : cables) {
            adj.get(c.a()).add(c.b());
            adj.get(c.b()).add(c.a());
        }
        int[] d = new int[n];
        java.util.Arrays.fill(d, -1);
        d[from] = 0;
        java.util.ArrayDeque<Integer> q = new java.util.ArrayDeque<>(List.of(from));
        while (!q.isEmpty()) {
            int x = q.poll();
            for (int y : adj.get(x)) {
                if (d[y] < 0) {
                    d[y] = d[x] + 1;
                    q.add(y);
                }
            }
        }
        return d;
    }

    /** The index in {@link #cables()} of the cable at port {@code port} of NRC {@code nrc}, or -1 if none is there. */
    public int cableAt(int nrc, int port) {
        for (int i = 0; i < cables.size(); i++) {
            Cable c = cables.get(i);
            if (c.a() == nrc && c.portA() == port || c.b() == nrc && c.portB() == port) {
                return i;
            }
        }
        return -1;
    }

    /** The node whose cable is at {@code port} of NRC {@code nrc}, or -1. */
    public int nodeAt(int nrc, int port) {
        for (Node n : nodes) {
            if (n.nrc() == nrc && n.port() == port) {
                return n.index();
            }
        }
        return -1;
    }

    public List<Nrc> nrcs() {
        return List.copyOf(nrcs);
    }

    public List<Cable> cables() {
        return List.copyOf(cables);
    }

    public List<Node> nodes() {
        return List.copyOf(nodes);
    }
}
