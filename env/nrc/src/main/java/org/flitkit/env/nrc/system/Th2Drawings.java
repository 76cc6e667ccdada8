package org.flitkit.env.nrc.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Drawings of a {@link Th2FatTree} per level, as Graphviz DOT (docs/th2-fabric.md, "Drawings"): the machine as
 * cabinets with the cable counts between them, one bottom switch (a frame's), one leaf group, one root switch, each NRC
 * with the ports it uses. {@link #render} turns them into SVG and PNG with Debian's graphviz ({@code dot}).
 */
public final class Th2Drawings {
    private static final String DOWN_COLOUR = "#cc0000";
    private static final String DEAD_COLOUR = "#999999";

    private final Th2FatTree tree;
    /** cables (indexes in the tree's cables) drawn as down, NRCs (indexes) drawn as dead */
    private final java.util.Set<Integer> downCables;
    private final java.util.Set<Integer> deadNrcs;

    public Th2Drawings(Th2FatTree tree) {
        this(tree, java.util.Set.of(), java.util.Set.of());
    }

    /** Drawings that show cables {@code downCables} in red with the count down, NRCs {@code deadNrcs} greyed. */
    public Th2Drawings(Th2FatTree tree, java.util.Set<Integer> downCables, java.util.Set<Integer> deadNrcs) {
        this.tree = tree;
        this.downCables = downCables;
        this.deadNrcs = deadNrcs;
    }

    /** The drawings by file stem: {@code cabinets}, {@code bottom-switch}, and with leaves {@code leaf-group} and {@code root-switch}. */
    public Map<String, String> all() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cabinets", cabinets());
        m.put("bottom-switch", inside(Th2FatTree.Role.BOTTOM, 0));
        if (tree.leafSwitches() > 0) {
            m.put("leaf-group", leafGroup(0));
            m.put("root-switch", inside(Th2FatTree.Role.ROOT, 0));
        }
        return m;
    }

    /**
     * Compute cabinets (those under one leaf cabinet as one box), leaf and root cabinets as boxes; an edge per pair with
     * cables between them, labelled with how many.
     */
    public String cabinets() {
        Map<String, Integer> edges = new TreeMap<>();
        Map<String, Integer> down = new TreeMap<>();
        Map<String, List<String>> ranks = new LinkedHashMap<>();
        Map<String, Th2FatTree.Role> roles = new LinkedHashMap<>();
        for (Th2FatTree.Nrc n : tree.nrcs()) {
            String c = cabinet(n);
            if (roles.put(c, n.role()) == null) {
                ranks.computeIfAbsent(n.role().name(), k -> new ArrayList<>()).add(c);
            }
        }
        for (int i = 0; i < tree.cables().size(); i++) {
            Th2FatTree.Cable c = tree.cables().get(i);
            String a = cabinet(tree.nrcs().get(c.a()));
            String b = cabinet(tree.nrcs().get(c.b()));
            if (!a.equals(b)) {
                String key = a.compareTo(b) < 0 ? a + "\u0000" + b : b + "\u0000" + a;
                edges.merge(key, 1, Integer::sum);
                if (downCables.contains(i)) {
                    down.merge(key, 1, Integer::sum);
                }
            }
        }
        // leaf to root cabinets: every pair has the same count in a full plane; one number in the title then
        java.util.Set<Integer> upper = new java.util.TreeSet<>();
        edges.forEach((k, v) -> {
            String[] e = k.split("\u0000");
            if (roles.get(e[0]) != Th2FatTree.Role.BOTTOM && roles.get(e[1]) != Th2FatTree.Role.BOTTOM) {
                upper.add(v);
            }
        });
        boolean uniform = upper.size() == 1;
        StringBuilder s = header("th2_cabinets", String.format(Locale.ROOT, "TH-2 fat tree: %d compute, %d leaf, %d root cabinets; %,d NRCs, %,d NICs%s",
                tree.computeCabinets(), tree.leafCabinets(), tree.rootCabinets(), tree.nrcs().size(), tree.nodes().size(),
                uniform ? "; " + upper.iterator().next() + " cables between each leaf and root cabinet" : ""));
        s.append("  rankdir=BT;\n  ranksep=1.5;\n  node [shape=box, style=filled];\n");
        for (Map.Entry<String, List<String>> r : ranks.entrySet()) {
            List<String> sorted = new ArrayList<>(r.getValue());
            sorted.sort(java.util.Comparator.comparingInt(Th2Drawings::firstNumber));
            s.append("  { rank=same;");
            for (String c : sorted) {
                s.append(" \"").append(c).append("\" [fillcolor=\"").append(colour(Th2FatTree.Role.valueOf(r.getKey()))).append("\"];");
            }
            // invisible edges keep each row in cabinet order
            for (int i = 1; i < sorted.size(); i++) {
                s.append(" \"").append(sorted.get(i - 1)).append("\" -- \"").append(sorted.get(i)).append("\" [style=invis];");
            }
            s.append(" }\n");
        }
        for (Map.Entry<String, Integer> e : edges.entrySet()) {
            String[] ends = e.getKey().split("\u0000");
            boolean unlabelled = uniform && roles.get(ends[0]) != Th2FatTree.Role.BOTTOM && roles.get(ends[1]) != Th2FatTree.Role.BOTTOM;
            int d = down.getOrDefault(e.getKey(), 0);
            String attrs = d > 0 ? " [color=\"" + DOWN_COLOUR + "\", penwidth=2, label=\"" + e.getValue() + " (" + d + " down)\"]"
                    : unlabelled ? " [color=\"#00000040\"]" : " [label=\"" + e.getValue() + "\"]";
            s.append("  \"").append(ends[0]).append("\" -- \"").append(ends[1]).append("\"").append(attrs).append(";\n");
        }
        return s.append("}\n").toString();
    }

    private static int firstNumber(String label) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\d+").matcher(label);
        return m.find() ? Integer.parseInt(m.group()) : 0;
    }

    /** Switch {@code unit} of {@code role} (a bottom or root switch): its NRCs, the cables between them, the ports to outside. */
    public String inside(Th2FatTree.Role role, int unit) {
        List<Th2FatTree.Nrc> members = tree.nrcs().stream().filter(n -> n.role() == role && n.unit() == unit).toList();
        if (members.isEmpty()) {
            throw new IllegalArgumentException("the machine has no " + role.name().toLowerCase(Locale.ROOT) + " switch " + unit);
        }
        String title = (role == Th2FatTree.Role.BOTTOM ? "bottom switch " : "root switch ") + unit + ": " + members.size() + " NRCs";
        StringBuilder s = header(role.name().toLowerCase(Locale.ROOT) + "_switch_" + unit, title);
        s.append("  rankdir=BT;\n  node [shape=box, style=filled, fillcolor=\"").append(colour(role)).append("\"];\n");
        Map<Integer, Integer> outside = new TreeMap<>();
        Map<Integer, Integer> outsideDown = new TreeMap<>();
        Map<String, Integer> inner = new TreeMap<>();
        Map<String, Integer> innerDown = new TreeMap<>();
        for (int i = 0; i < tree.cables().size(); i++) {
            Th2FatTree.Cable c = tree.cables().get(i);
            boolean a = members.contains(tree.nrcs().get(c.a()));
            boolean b = members.contains(tree.nrcs().get(c.b()));
            int isDown = downCables.contains(i) ? 1 : 0;
            if (a && b) {
                String key = "\"NRC " + c.a() + "\" -- \"NRC " + c.b() + "\"";
                inner.merge(key, 1, Integer::sum);
                innerDown.merge(key, isDown, Integer::sum);
            } else if (a || b) {
                outside.merge(a ? c.a() : c.b(), 1, Integer::sum);
                outsideDown.merge(a ? c.a() : c.b(), isDown, Integer::sum);
            }
        }
        Map<Integer, Integer> nodes = new TreeMap<>();
        for (Th2FatTree.Node n : tree.nodes()) {
            if (members.contains(tree.nrcs().get(n.nrc()))) {
                nodes.merge(n.nrc(), 1, Integer::sum);
            }
        }
        for (Th2FatTree.Nrc n : members) {
            boolean dead = deadNrcs.contains(n.index());
            s.append("  \"NRC ").append(n.index()).append("\" [label=\"NRC ").append(n.index()).append("\\nmember ").append(n.member())
                    .append(dead ? "\\ndead\", fillcolor=\"" + DEAD_COLOUR : "").append("\"];\n");
        }
        for (Map.Entry<String, Integer> e : inner.entrySet()) {
            int d = innerDown.get(e.getKey());
            s.append("  ").append(e.getKey()).append(d > 0 ? " [color=\"" + DOWN_COLOUR + "\", penwidth=2, label=\"" + e.getValue() + " (" + d + " down)\"]"
                    : " [label=\"" + e.getValue() + "\"]").append(";\n");
        }
        for (Map.Entry<Integer, Integer> e : nodes.entrySet()) {
            s.append("  \"nodes ").append(e.getKey()).append("\" [shape=ellipse, fillcolor=\"#eeeeee\", label=\"").append(e.getValue()).append(" NICs\"];\n");
            s.append("  \"nodes ").append(e.getKey()).append("\" -- \"NRC ").append(e.getKey()).append("\";\n");
        }
        for (Map.Entry<Integer, Integer> e : outside.entrySet()) {
            int d = outsideDown.get(e.getKey());
            s.append("  \"out ").append(e.getKey()).append("\" [shape=plaintext, style=\"\", label=\"").append(e.getValue())
                    .append(" cables to leaves").append(d > 0 ? " (" + d + " down)" : "")
                    .append("\"").append(d > 0 ? ", fontcolor=\"" + DOWN_COLOUR + "\"" : "").append("];\n");
            // a bottom switch's leaves are above it, a root switch's below
            String nrc = "\"NRC " + e.getKey() + "\"";
            String out = "\"out " + e.getKey() + "\"";
            s.append("  ").append(role == Th2FatTree.Role.BOTTOM ? nrc + " -- " + out : out + " -- " + nrc).append(" [style=dashed];\n");
        }
        return s.append("}\n").toString();
    }

    /** Leaf group {@code g}: its bottom switches below, its 20 leaves above, one edge per uplink cable. */
    public String leafGroup(int g) {
        StringBuilder s = header("leaf_group_" + g, "leaf group " + g + ": bottom switches and their 20 leaves");
        s.append("  rankdir=BT;\n  node [shape=box, style=filled];\n  nodesep=0.05;\n");
        List<Th2FatTree.Nrc> nrcs = tree.nrcs();
        for (int i = 0; i < tree.cables().size(); i++) {
            Th2FatTree.Cable c = tree.cables().get(i);
            Th2FatTree.Nrc a = nrcs.get(c.a());
            Th2FatTree.Nrc b = nrcs.get(c.b());
            if (a.role() == Th2FatTree.Role.BOTTOM && b.role() == Th2FatTree.Role.LEAF && a.unit() / Th2FatTree.LEAF_DOWN == g) {
                s.append("  \"bottom ").append(a.unit()).append("\" [fillcolor=\"").append(colour(a.role())).append("\"];\n");
                s.append("  \"leaf ").append(b.unit()).append("\" [fillcolor=\"").append(deadNrcs.contains(b.index()) ? DEAD_COLOUR : colour(b.role())).append("\"];\n");
                s.append("  \"bottom ").append(a.unit()).append("\" -- \"leaf ").append(b.unit()).append("\"")
                        .append(downCables.contains(i) ? " [color=\"" + DOWN_COLOUR + "\", penwidth=2]" : "").append(";\n");
            }
        }
        return s.append("}\n").toString();
    }

    /**
     * Writes each drawing as {@code stem.dot} in {@code dir} and, if {@code dot} is on the PATH, {@code stem.svg} and
     * {@code stem.png}; returns the files written.
     */
    public List<Path> render(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        boolean graphviz = hasDot();
        for (Map.Entry<String, String> e : all().entrySet()) {
            Path dot = dir.resolve(e.getKey() + ".dot");
            Files.writeString(dot, e.getValue());
            out.add(dot);
            if (graphviz) {
                for (String fmt : List.of("svg", "png")) {
                    Path f = dir.resolve(e.getKey() + "." + fmt);
                    run(List.of("dot", "-T" + fmt, "-o", f.toString(), dot.toString()));
                    out.add(f);
                }
            }
        }
        return out;
    }

    /** {@code dot} laid out and drawn as SVG by Graphviz's {@code dot}. */
    public static String svg(String dot) throws IOException {
        Process p = new ProcessBuilder("dot", "-Tsvg").start();
        try (var in = p.getOutputStream()) {
            in.write(dot.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                throw new IOException("dot -Tsvg failed: " + err.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("dot -Tsvg interrupted", e);
        }
        return out;
    }

    /** Whether Graphviz's {@code dot} can be run. */
    public static boolean hasDot() {
        try {
            Process p = new ProcessBuilder("dot", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void run(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        try {
            if (p.waitFor() != 0) {
                throw new IOException(String.join(" ", cmd) + " failed: " + log.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", cmd) + " interrupted", e);
        }
    }

    private String cabinet(Th2FatTree.Nrc n) {
        return switch (n.role()) {
            case BOTTOM -> computeCabinets(n.unit());
            case LEAF -> "leaf cabinet " + tree.leafGroupOf(n.unit()) / Th2FatTree.GROUPS_PER_LEAF_CABINET;
            case ROOT -> "root cabinet " + n.unit() / Th2FatTree.ROOTS_PER_CABINET;
        };
    }

    /**
     * The compute cabinets under one leaf cabinet (3 leaf groups of 12 bottom switches: 9 cabinets) as one box, so
     * that the whole machine is 16 + 16 + 8 boxes; a frame alone is "frame".
     */
    private String computeCabinets(int bottom) {
        if (tree.leafSwitches() == 0) {
            return "frame";
        }
        int perLeafCabinet = Th2FatTree.GROUPS_PER_LEAF_CABINET * Th2FatTree.LEAF_DOWN / Th2FatTree.BOTTOMS_PER_CABINET;
        int first = bottom / Th2FatTree.BOTTOMS_PER_CABINET / perLeafCabinet * perLeafCabinet;
        int last = Math.min(tree.computeCabinets(), first + perLeafCabinet) - 1;
        return first == last ? "compute cabinet " + first : "compute cabinets " + first + "-" + last;
    }

    private static String colour(Th2FatTree.Role r) {
        return switch (r) {
            case BOTTOM -> "#cfe2f3";
            case LEAF -> "#d9ead3";
            case ROOT -> "#fce5cd";
        };
    }

    private static StringBuilder header(String name, String title) {
        return new StringBuilder("graph ").append(name).append(" {\n  label=\"").append(title).append("\";\n  labelloc=t;\n  fontname=\"Helvetica\";\n")
                .append("  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\"];\n");
    }
}
