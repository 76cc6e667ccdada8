package org.flitkit.hdl.sim;

import java.util.ArrayList;
import java.util.List;

import static org.flitkit.hdl.sim.SourceText.hex;
import static org.flitkit.hdl.sim.SourceText.UNIT_HEADER;

/**
 * The method splitter: generated statements as static methods small enough for the JIT, grouped into
 * classes of {@link #METHODS_PER_CLASS}, and the methods that call them (the flag dispatchers of the
 * flagged variants, the plain variant's groups); see docs/simulator.md, "Chunks follow module instances".
 */
final class MethodSplitter {
    /** Generated-source characters per method; keeps Janino's bytecode well under HotSpot's 8,000-byte limit. */
    static final int METHOD_BUDGET = 12_000;
    /** Methods per generated class, to stay far from constant-pool limits. */
    static final int METHODS_PER_CLASS = 24;

    final String className;
    final String prefix;
    final String params;
    final List<StringBuilder> bodies = new ArrayList<>();
    /** per method: wake-up code written beside it (name by code), see {@link EmitState#wake} */
    java.util.Map<Integer, java.util.Map<String, String>> wakes = java.util.Map.of();

    /** Methods named {@code prefix0, prefix1, ...} with parameters {@code params}, in classes named after {@code className}. */
    MethodSplitter(String className, String prefix, String params) {
        this.className = className;
        this.prefix = prefix;
        this.params = params;
    }

    String owner(int i) {
        return className + "_" + prefix.toUpperCase() + (i / METHODS_PER_CLASS);
    }

    void calls(StringBuilder src, String args) {
        calls(src, args, "        ");
    }

    void calls(StringBuilder src, String args, String indent) {
        for (int i = 0; i < bodies.size(); i++) {
            src.append(indent).append(owner(i)).append('.').append(prefix).append(i).append('(').append(args).append(");\n");
        }
    }

    /**
     * Dispatchers of the chunk methods, one per flag word (64 chunks): each calls a chunk only when
     * its flag is up (the storing variant also runs a stale chunk) or when skipping is off; a skipped
     * chunk counts in {@code act[1]}. The model method skips a whole word whose flags are all down.
     */
    MethodSplitter dispatchers(String dprefix, boolean storing, StringBuilder model, int words, java.util.BitSet fastUnstored) {
        MethodSplitter d = new MethodSplitter(className, dprefix, params);
        String call = "(v, w, m, nx, nxw, rst, act);";
        for (int word = 0; word * 64 < bodies.size(); word++) {
            int first = word * 64;
            int count = Math.min(64, bodies.size() - first);
            model.append("        if (act[0] == 0L || ").append(flagExpr(word, storing, words)).append(" != 0L) ")
                    .append(dprefix).append(word).append(call).append(" else act[1] += ").append(count).append(";\n");
            String flag = "act[" + (SimModel.FLAGS + word) + "]";
            String stale = "act[" + (SimModel.FLAGS + 2 * words + word) + "]";
            long all = count == 64 ? -1L : (1L << count) - 1;
            long[] u = fastUnstored.get(first, first + count).toLongArray();
            long unstored = storing || u.length == 0 ? 0L : u[0];
            StringBuilder body = new StringBuilder();
            body.append("        if (act[0] == 0L) {\n");
            for (int i = first; i < first + count; i++) {
                body.append("            ").append(owner(i)).append('.').append(prefix).append(i).append(call).append('\n');
            }
            body.append(marks(storing, flag, stale, null, word, words, all, unstored, "    "));
            // raised flags only, in order: a chunk only wakes chunks after it, so one pass suffices. One
            // test per chunk rather than a loop over the raised bits: each test is a branch the CPU
            // predicts per chunk, where a switch on the next raised bit is an indirect jump it mostly misses
            body.append("            return;\n        }\n");
            for (int i = first; i < first + count; i++) {
                body.append("        if ((").append(flagExpr(word, storing, words)).append(" & ").append(hex(1L << (i - first)))
                        .append(") != 0L) ").append(owner(i)).append('.').append(prefix).append(i).append(call).append('\n');
            }
            // so the word's flags are exactly the chunks that ran (with the stale ones, when storing): no
            // chunk clears its own flag or counts itself, which were two read-modify-writes of act per run
            body.append("        final long ran = ").append(flagExpr(word, storing, words)).append(";\n");
            body.append(marks(storing, flag, stale, "ran", word, words, all, unstored, ""));
            body.append("        act[1] += ").append(count).append(" - Long.bitCount(ran);\n");
            d.bodies.add(body);
        }
        return d;
    }

    /**
     * After a word's chunks ran ({@code ran}; all of them, {@code all}, when skipping is off and
     * {@code ran} is null): their flags are down; the storing variant marks them fresh and run (for
     * the profile); the fast variant marks stale those that kept values in locals and fresh the others.
     */
    private String marks(boolean storing, String flag, String stale, String ran, int word, int words, long all, long unstored, String indent) {
        String r = ran == null ? hex(all) : ran;
        String b = indent + "        " + flag + " = 0L; ";
        return b + (storing
                ? stale + " = 0L; act[" + (SimModel.FLAGS + 3 * words + word) + "] |= " + r + ";\n"
                : stale + " = (" + stale + " & ~" + r + ") | (" + r + " & " + hex(unstored) + ");\n");
    }

    /** Methods calling the chunk methods in order, 64 to a method, called in order from the model method. */
    MethodSplitter groups(String gprefix, StringBuilder model) {
        MethodSplitter g = new MethodSplitter(className, gprefix, params);
        String call = "(v, w, m, nx, nxw, rst, act);";
        for (int i = 0; i < bodies.size(); i++) {
            if ((i & 63) == 0) {
                g.bodies.add(new StringBuilder());
                model.append("        ").append(gprefix).append(i >>> 6).append(call).append('\n');
            }
            g.bodies.get(i >>> 6).append("        ").append(owner(i)).append('.').append(prefix).append(i).append(call).append('\n');
        }
        return g;
    }

    private String flagExpr(int word, boolean storing, int words) {
        String flag = "act[" + (SimModel.FLAGS + word) + "]";
        return storing ? "(" + flag + " | act[" + (SimModel.FLAGS + 2 * words + word) + "])" : flag;
    }

    /** The methods as private static members of the class being written to {@code src}. */
    void inline(StringBuilder src) {
        for (int i = 0; i < bodies.size(); i++) {
            src.append("\n    private static void ").append(prefix).append(i).append('(').append(params).append(") {\n")
                    .append(bodies.get(i)).append("    }\n");
        }
    }

    void classes(List<StringBuilder> units) {
        StringBuilder src = null;
        for (int i = 0; i < bodies.size(); i++) {
            if (i % METHODS_PER_CLASS == 0) {
                src = new StringBuilder(UNIT_HEADER);
                units.add(src);
                src.append("public final class ").append(owner(i)).append(" {\n");
            }
            src.append("    public static void ").append(prefix).append(i).append('(').append(params).append(") {\n")
                    .append(bodies.get(i)).append("    }\n");
            for (java.util.Map.Entry<String, String> wk : wakes.getOrDefault(i, java.util.Map.of()).entrySet()) {
                src.append("    private static void ").append(wk.getValue()).append("(long[] v, long[] act) {\n        ").append(wk.getKey())
                        .append("\n    }\n");
            }
            if (i % METHODS_PER_CLASS == METHODS_PER_CLASS - 1 || i == bodies.size() - 1) {
                src.append("}\n");
            }
        }
    }

    /** Statements in order, a new method whenever the next one would take the current one over {@link #METHOD_BUDGET}. */
    static MethodSplitter split(String className, String prefix, List<String> stmts, String params) {
        MethodSplitter ms = new MethodSplitter(className, prefix, params);
        StringBuilder cur = null;
        for (String s : stmts) {
            if (cur == null || cur.length() + s.length() > METHOD_BUDGET) {
                cur = new StringBuilder();
                ms.bodies.add(cur);
            }
            cur.append("        ").append(s).append('\n');
        }
        return ms;
    }
}
