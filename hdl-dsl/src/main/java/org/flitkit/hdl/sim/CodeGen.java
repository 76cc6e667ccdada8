package org.flitkit.hdl.sim;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Netlist;
import org.flitkit.hdl.sim.Schedule.Item;

import static org.flitkit.hdl.sim.SourceText.*;
import static org.flitkit.hdl.sim.Wide.limbs;
import static org.flitkit.hdl.sim.Wide.maskOf;

/**
 * Turns a {@link Netlist} into Java source for a {@link SimModel} and the {@link SimPlan} the simulator
 * reads, as passes over the design (docs/simulator.md, "The code generator's passes"): {@link SlotLayout},
 * {@link Schedule}, a first emission that cuts the chunks, the {@link ActivityPlan} made from what it
 * recorded, the emission of the three variants ({@link StatementEmitter}, {@link NarrowEmitter},
 * {@link WideEmitter}) and the {@link MethodSplitter}. This class runs them in order, cuts chunks and
 * assembles the units.
 */
final class CodeGen {
    final Netlist net;
    final String className;

    /** the slot layout pass: where every value lives */
    private final SlotLayout layout;

    /** the emitters and the state they share */
    private final EmitState st;
    private final NarrowEmitter narrow;
    private final WideEmitter wide;
    private final StatementEmitter stmts;

    CodeGen(Netlist net, String className) {
        this(net, className, null);
    }

    /**
     * Flagged chunk bodies longer than this many characters (wake-up code included) make the chunks be cut
     * again with the wake-up code counted: at the flagged code's 0.35-0.41 bytecode bytes per character,
     * 16,000 characters stay well under HotSpot's 8,000-byte limit.
     */
    static final int FLAGGED_BUDGET = 16_000;

    /** per item of the flagged order: the characters its wake-up code added in a first generation (null: none yet) */
    private final int[] wakeChars;
    /** per item of the flagged order: its length as cut, and as emitted with the storing variant's wake-up code */
    private int[] cutChars;
    private int[] flaggedChars;

    private CodeGen(Netlist net, String className, int[] wakeChars) {
        this.net = net;
        this.className = className;
        this.wakeChars = wakeChars;
        this.layout = new SlotLayout(net);
        this.st = new EmitState(net, layout);
        this.narrow = new NarrowEmitter(st);
        this.wide = new WideEmitter(st, narrow);
        narrow.wide = wide;
        this.stmts = new StatementEmitter(st, narrow, wide);
    }

    /** chunks whose fast variant keeps some value in locals only, so that a run of it leaves them stale */
    private final java.util.BitSet fastUnstored = new java.util.BitSet();

    /**
     * The generated source as three programs. Each is a list of compilation units: the class with the
     * entry points first, then the classes holding its chunk methods (independent of each other, so
     * they can be compiled in parallel). The model program is all a simulator needs; the fast and plain
     * variants ({@link SimModel.Variant}) are compiled against it later, when first wanted.
     */
    record Programs(List<String> model, List<String> fast, List<String> plain) {
        List<String> all() {
            List<String> units = new ArrayList<>(model);
            units.addAll(fast);
            units.addAll(plain);
            return units;
        }
    }

    /** A small unit shaped like generated code (the same imports, array reads, a wake-up), for {@code SimCompiler}'s warm-up. */
    static String warmUpUnit() {
        return UNIT_HEADER + "public final class WarmUp {\n    public static void c0(long[] v, long[] w, Memories m, long[] nx, long[] nxw, boolean rst, long[] act) {\n"
                + "        final long x1 = v[1]; final long x2 = (x1 ^ 0x3L) & v[2]; if (v[3] != x2) { v[3] = x2; act[4] |= 0x10L; }\n"
                + "        if (!Wide.eq(nxw, 0, w, 0, 128)) { act[5] |= 0x1L; } nx[0] = LinearMaps.apply(w, 0, 0, 0); MemPorts.write8(m, 0, 0L, 1, 0L);\n"
                + "    }\n}\n";
    }

    /** The variants' entry classes are named after the model class with these suffixes. */
    static final String FAST = "_Fast";
    static final String PLAIN = "_Plain";

    /** The generated source and what the simulator needs to know of it. */
    record Output(Programs programs, SimPlan plan) {
    }

    Output generate() {
        Schedule schedule = new Schedule(net, layout);
        List<Item> items = schedule.clustered;
        // the first emission cuts the chunks and records what each reads; from that the activity plan
        // knows every stored value's readers
        List<Integer> bounds = new ArrayList<>();
        List<EmitState.Chunk> cut = new ArrayList<>();
        cutChars = new int[items.size()];
        flaggedChars = new int[items.size()];
        emitChunks(items, bounds, cut, true, schedule.constantItems);
        List<ActivityPlan.ChunkUse> uses = new ArrayList<>();
        for (EmitState.Chunk c : cut) {
            uses.add(new ActivityPlan.ChunkUse(c.reads, c.memReads, c.wProduced, new ArrayList<>(c.owners), c.chars));
        }
        st.activity = new ActivityPlan(net, layout, uses, st.computedIn, st.counterSlots);
        st.mustStore.addAll(st.activity.storedSelects);
        // the plain variant (no flags, chunks cut by size only) for cycles where most logic is busy; its
        // chunks cross at other places, so it keeps its own set of values to store
        java.util.Set<Integer> flaggedStores = st.mustStore;
        st.mustStore = new java.util.HashSet<>();
        List<Integer> plainBounds = new ArrayList<>();
        List<Item> plainItems = schedule.fused;
        emitChunks(plainItems, plainBounds, new ArrayList<>(), false, 0);
        java.util.Set<Integer> plainStores = st.mustStore;
        // what the clock edge reads is stored by every variant
        st.mustStore = new java.util.HashSet<>();
        st.chunk = null;
        List<String> checks = new ArrayList<>();
        for (int i = 0; i < net.checks().size(); i++) {
            checks.add(stmts.checkStmt(i, net.checks().get(i)));
        }
        List<String> commit = new ArrayList<>(st.activity.guardedWakes());
        List<String> commitPlain = new ArrayList<>();
        for (Mem<?> mem : net.mems()) {
            for (Mem.Write wr : mem.writes()) {
                commit.add(stmts.writeStmt(mem, wr, true));
                commitPlain.add(stmts.writeStmt(mem, wr, false));
            }
        }
        flaggedStores.addAll(st.mustStore);
        plainStores.addAll(st.mustStore);
        st.mustStore = flaggedStores;
        st.flagging = true;
        List<StringBuilder> evalBodies = emitInBounds(items, bounds);
        if (wakeChars == null && evalBodies.stream().anyMatch(b -> b.length() > FLAGGED_BUDGET)) {
            // the cut could not see the wake-up code, which only the activity plan of that cut decides: cut
            // again, counting each item's wake-up code of this first plan (close to what the second one gives)
            int[] extra = new int[items.size()];
            for (int i = 0; i < extra.length; i++) {
                extra[i] = Math.max(0, flaggedChars[i] - cutChars[i]);
            }
            return new CodeGen(net, className, extra).generate();
        }
        Map<Integer, Map<String, String>> evalWakes = st.wakeMethods;
        st.wakeMethods = new java.util.HashMap<>();
        st.fast = true;
        List<StringBuilder> fastBodies = emitInBounds(items, bounds);
        Map<Integer, Map<String, String>> fastWakes = st.wakeMethods;
        st.flagging = false;
        st.mustStore = plainStores;
        List<StringBuilder> plainBodies = emitInBounds(plainItems, plainBounds);
        st.fast = false;
        st.flagging = false;
        st.chunk = null;
        String params = "long[] v, long[] w, Memories m, long[] nx, long[] nxw, boolean rst, long[] act";
        MethodSplitter evalM = new MethodSplitter(className, "c", params);
        evalM.bodies.addAll(evalBodies);
        evalM.wakes = evalWakes;
        MethodSplitter fastM = new MethodSplitter(className, "f", params);
        fastM.bodies.addAll(fastBodies);
        fastM.wakes = fastWakes;
        MethodSplitter plainM = new MethodSplitter(className, "p", params);
        plainM.bodies.addAll(plainBodies);
        MethodSplitter commitM = MethodSplitter.split(className, "t", commit, "long[] v, long[] w, Memories m, long[] nx, long[] act");
        MethodSplitter commitPlainM = MethodSplitter.split(className, "u", commitPlain, "long[] v, long[] w, Memories m, long[] nx, long[] act");
        MethodSplitter checkM = MethodSplitter.split(className, "k", checks, "long[] v, long[] w, org.flitkit.hdl.sim.SimModel.Events ev");
        List<String> resets = new ArrayList<>();
        for (Bits st : layout.state) {
            if (StatementEmitter.literalReset(st)) {
                resets.add(stmts.resetStmt(st) + comment(st));
            }
        }
        MethodSplitter resetM = MethodSplitter.split(className, "r", resets, "long[] nx");
        int words = st.activity.flagWords();
        String prologue = "        final long[] v = %1$s.v, w = %1$s.w, nx = %1$s.nx, nxw = %1$s.nxw, act = %1$s.act;\n"
                + "        final Memories m = %1$s.m;\n        final boolean rst = %1$s.reset;\n";

        StringBuilder src = new StringBuilder(UNIT_HEADER);
        src.append("/** Generated by FlitKit from ").append(net.top().definitionName()).append(". */\n");
        src.append("public final class ").append(className).append(" extends org.flitkit.hdl.sim.SimModel {\n");
        src.append("    public ").append(className).append("() {\n        super(").append(layout.nv).append(", ").append(layout.nw).append(", ")
                .append(layout.stateCount).append(", ").append(layout.wideStateCount).append(", ").append(st.activity.chunkCount).append(", ")
                .append(net.mems().size()).append(");\n    }\n\n");
        src.append("    public void evalComb() {\n").append(prologue.formatted("this"));
        MethodSplitter evalD = evalM.dispatchers("d", true, src, words, fastUnstored);
        src.append("    }\n\n");
        src.append("    public void commit() {\n").append(prologue.formatted("this"));
        commitBody(src, commitM, checkM, resetM, words, "this");
        // the dispatchers call into the part classes, so they live in the class compiled last
        evalD.inline(src);
        src.append("}\n");
        List<StringBuilder> model = new ArrayList<>(List.of(src));
        evalM.classes(model);
        commitM.classes(model);
        resetM.classes(model);
        checkM.classes(model);

        StringBuilder fastSrc = variantHeader(FAST, "evaluates only the chunks whose inputs changed, keeping values nobody outside a chunk reads in locals");
        fastSrc.append("    public void eval(org.flitkit.hdl.sim.SimModel mdl) {\n").append(prologue.formatted("mdl"));
        MethodSplitter fastD = fastM.dispatchers("e", false, fastSrc, words, fastUnstored);
        fastSrc.append("    }\n\n    public void commit(org.flitkit.hdl.sim.SimModel mdl) {\n        mdl.commit();\n    }\n");
        fastD.inline(fastSrc);
        fastSrc.append("}\n");
        List<StringBuilder> fastUnits = new ArrayList<>(List.of(fastSrc));
        fastM.classes(fastUnits);

        StringBuilder plainSrc = variantHeader(PLAIN, "evaluates every chunk with no activity bookkeeping, for stretches where most logic is busy");
        plainSrc.append("    public void eval(org.flitkit.hdl.sim.SimModel mdl) {\n").append(prologue.formatted("mdl"));
        MethodSplitter plainD = plainM.groups("q", plainSrc);
        plainSrc.append("    }\n\n    public void commit(org.flitkit.hdl.sim.SimModel mdl) {\n").append(prologue.formatted("mdl"));
        commitBody(plainSrc, commitPlainM, checkM, resetM, 0, "mdl");
        plainD.inline(plainSrc);
        plainSrc.append("}\n");
        List<StringBuilder> plainUnits = new ArrayList<>(List.of(plainSrc));
        plainM.classes(plainUnits);
        commitPlainM.classes(plainUnits);
        return new Output(new Programs(strings(model), strings(fastUnits), strings(plainUnits)), plan());
    }

    private SimPlan plan() {
        List<SimPlan.Constant> wide = new ArrayList<>();
        for (int i = 0; i < layout.wideConsts.size(); i++) {
            wide.add(new SimPlan.Constant(layout.wideConstOffsets.get(i), layout.wideConsts.get(i)));
        }
        List<SimPlan.Constant> narrow = new ArrayList<>();
        for (long[] c : layout.narrowConsts) {
            narrow.add(new SimPlan.Constant((int) c[0], new long[] {c[1]}));
        }
        Map<Bits, long[]> readers = new IdentityHashMap<>();
        for (Bits b : net.inputs()) {
            readers.put(b, st.activity.inputReaders(b).toLongArray());
        }
        return new SimPlan(new SimPlan.SlotMap(layout.nslot, layout.wslot, layout.aliasOf), layout.nv, layout.nw, wide, narrow, readers,
                java.util.Arrays.copyOf(counterChunks.toLongArray(), st.activity.flagWords()), st.activity.counterSteps(),
                st.activity.counterMatches(), !st.counterReadAtEdge,
                st.activity.chunkModules, st.activity.chunkChars);
    }

    private StringBuilder variantHeader(String suffix, String what) {
        StringBuilder src = new StringBuilder(UNIT_HEADER);
        src.append("/** Generated by FlitKit from ").append(net.top().definitionName()).append(": ").append(what).append(". */\n");
        src.append("public final class ").append(className).append(suffix).append(" extends org.flitkit.hdl.sim.SimModel.Variant {\n");
        return src;
    }

    private static List<String> strings(List<StringBuilder> units) {
        List<String> out = new ArrayList<>();
        for (StringBuilder u : units) {
            out.add(u.toString());
        }
        return out;
    }

    /**
     * The clock edge: checks and prints, memory writes, constant resets, the state copy, and (with
     * {@code words} flag words) the flags raised for the coming cycle.
     */
    private void commitBody(StringBuilder src, MethodSplitter commitM, MethodSplitter checkM, MethodSplitter resetM, int words, String model) {
        if (!checkM.bodies.isEmpty()) {
            src.append("        if (!rst) {\n");
            checkM.calls(src, "v, w, " + model + ".events", "            ");
            src.append("        }\n");
        }
        commitM.calls(src, "v, w, m, nx, act");
        if (!resetM.bodies.isEmpty()) {
            src.append("        if (rst) {\n");
            resetM.calls(src, "nx", "            ");
            src.append("        }\n");
        }
        if (layout.stateCount > 0) {
            src.append("        System.arraycopy(nx, 0, v, ").append(layout.stateBase).append(", ").append(layout.stateCount).append(");\n");
        }
        if (layout.wideStateCount > 0) {
            src.append("        System.arraycopy(nxw, 0, w, ").append(layout.wideStateBase).append(", ").append(layout.wideStateCount).append(");\n");
        }
        // what changed at this edge wakes its readers in the coming cycle (and everything while in reset)
        for (int i = 0; i < words; i++) {
            src.append("        act[").append(SimModel.FLAGS + i).append("] |= rst ? ").append(hex(SimModel.validBits(st.activity.chunkCount, i)))
                    .append(" : act[").append(SimModel.FLAGS + words + i)
                    .append("]; act[").append(SimModel.FLAGS + words + i).append("] = 0L;\n");
        }
        src.append("    }\n\n");
    }

    /** emitting: the previous item was a counter's next state, so the next item starts a chunk */
    private boolean afterCounter;

    /** chunks that compute nothing but a counter's next value or a comparison of a counter with a constant */
    final java.util.BitSet counterChunks = new java.util.BitSet();

    /** Source characters from which a chunk ends where the next item belongs to another module instance. */
    static final int MODULE_CHUNK_MIN = 600;

    /** The chunk being cut holds constants: it ends before the first item that is not one. */
    private boolean holdsConstants;

    /**
     * Emits items into chunk methods; an item that would overflow a method starts the next one, and so
     * does an item of another module instance once the chunk has some size, and the first item after
     * the constants.
     */
    private void emitChunks(List<Item> items, List<Integer> bounds, List<EmitState.Chunk> chunks, boolean byModule, int constantItems) {
        int len = 0;
        int flaggedLen = 0;
        st.chunk = new EmitState.Chunk();
        st.chunkIndex = 0;
        org.flitkit.hdl.Module owner = null;
        for (int idx = 0; idx < items.size(); idx++) {
            Item it = items.get(idx);
            int mark = st.chunk.added.size();
            int r0 = st.chunk.reads.size();
            int m0 = st.chunk.memReads.size();
            int p0 = st.chunk.wProduced.size();
            String stmt = emit(it);
            if (stmt == null) {
                continue;
            }
            boolean counted = byModule && wakeChars != null;
            int wake = counted ? wakeChars[idx] : 0;
            boolean full = len + stmt.length() > MethodSplitter.METHOD_BUDGET || counted && flaggedLen + stmt.length() + wake > FLAGGED_BUDGET;
            boolean moduleEnds = byModule && (it.node().owner() != owner && len >= MODULE_CHUNK_MIN || holdsConstants && idx >= constantItems);
            // a counter steps alone in its chunk, and so is each comparison of one with a constant: a design
            // where only counters move can sleep (see quietMask)
            boolean counter = byModule && (it.next() ? layout.counters.contains(it.node()) : layout.matches.containsKey(it.node()));
            if (len > 0 && (full || moduleEnds || counter || afterCounter)) {
                // the item goes to the next chunk: take back what it recorded in this one
                for (int k = st.chunk.added.size() - 1; k >= mark; k--) {
                    st.chunk.locals.remove(st.chunk.added.remove(k));
                }
                st.chunk.reads.subList(r0, st.chunk.reads.size()).clear();
                st.chunk.memReads.subList(m0, st.chunk.memReads.size()).clear();
                st.chunk.wProduced.subList(p0, st.chunk.wProduced.size()).clear();
                chunks.add(st.chunk);
                bounds.add(idx);
                len = 0;
                flaggedLen = 0;
                st.chunk = new EmitState.Chunk();
                st.chunkIndex++;
                stmt = emit(it);
            }
            owner = it.node().owner();
            holdsConstants = idx < constantItems;
            len += stmt.length() + 9;
            flaggedLen += stmt.length() + 9 + wake;
            if (byModule) {
                cutChars[idx] = stmt.length();
            }
            st.chunk.owners.add(owner == null ? "?" : owner.path());
            st.chunk.chars = len;
            afterCounter = counter;
            if (counter) {
                counterChunks.set(st.chunkIndex);
            }
        }
        afterCounter = false;
        holdsConstants = false;
        if (len > 0) {
            chunks.add(st.chunk);
        }
    }

    /** The same items in the same chunks again, with the activity flags (the two variants agree on what crosses chunks). */
    private List<StringBuilder> emitInBounds(List<Item> items, List<Integer> bounds) {
        List<StringBuilder> bodies = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        st.chunk = new EmitState.Chunk();
        st.chunkIndex = 0;
        int next = 0;
        for (int idx = 0; idx < items.size(); idx++) {
            if (next < bounds.size() && idx == bounds.get(next)) {
                bodies.add(st.flagging ? flagged(cur, st.chunk, st.chunkIndex) : cur);
                cur = new StringBuilder();
                st.chunk = new EmitState.Chunk();
                st.chunkIndex++;
                next++;
            }
            String stmt = emit(items.get(idx));
            if (stmt != null) {
                cur.append("        ").append(stmt).append('\n');
                if (st.flagging && !st.fast) {
                    flaggedChars[idx] = stmt.length();
                }
            }
        }
        if (cur.length() > 0) {
            bodies.add(st.flagging ? flagged(cur, st.chunk, st.chunkIndex) : cur);
        }
        return bodies;
    }

    /**
     * The dispatcher clears a word's flags once its chunks have run, and updates their stale and
     * profile marks (see {@link MethodSplitter#dispatchers}). A chunk records only whether the fast variant
     * kept some value in locals, so that the next {@code evalComb} runs it again to store them.
     */
    private StringBuilder flagged(StringBuilder body, EmitState.Chunk c, int index) {
        if (st.fast && c.unstored) {
            fastUnstored.set(index);
        }
        return body;
    }

    private String emit(Item it) {
        st.chunk.preload.setLength(0);
        String s = it.next() ? stmts.nextStmt(it.node(), true) + comment(it.node()) : stmts.combStmt(it.node());
        if (s == null) {
            return null;
        }
        if (!it.next()) {
            s += comment(it.node());
        }
        return st.chunk.preload + s;
    }

    private static String comment(Bits n) {
        return n.name() == null ? "" : " // " + n.path();
    }
}
