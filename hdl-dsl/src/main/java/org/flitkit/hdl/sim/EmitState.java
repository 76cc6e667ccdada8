package org.flitkit.hdl.sim;

import static org.flitkit.hdl.sim.SourceText.*;
import static org.flitkit.hdl.sim.Wide.limbs;
import static org.flitkit.hdl.sim.Wide.maskOf;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Netlist;

/**
 * What the emitters share while they write one variant's statements: the chunk being written (its locals and
 * what it reads), the variant (storing, fast, plain) and whether wake-up code is written, the values each
 * chunk must store, the select values known inside the arm being written, and the enclosing select arms.
 * The code generator sets the variant and the chunk; the emitters read and record.
 */
final class EmitState {
    final Netlist net;
    final SlotLayout layout;
    /** the chunk being written (null while writing the clock edge's statements), and its index */
    Chunk chunk;
    int chunkIndex;

    /** chunk that computes each comb slot */
    final Map<Integer, Integer> computedIn = new java.util.HashMap<>();

    /** comb slots read outside the chunk that computes them (other chunks, commit): the fast variant stores only these */
    java.util.Set<Integer> mustStore = new java.util.HashSet<>();

    /** emitting the fast variant: values only this chunk reads stay in locals */
    boolean fast;

    /** Values of 1-bit mux selects inside the arm being generated: 1 in the first arm, 0 in the second. */
    final Map<Bits, String> known = new IdentityHashMap<>();

    /** emitting the wake-up code of the activity flags (passes 2 and 3) */
    boolean flagging;

    /** the activity plan, made from the chunks of pass 1 */
    ActivityPlan activity;

    /** Wake-up code longer than this many characters becomes a method beside its chunk's (docs/simulator.md). */
    static final int INLINE_WAKE_MAX = 160;

    /** per chunk of the flagged variant being emitted: its long wake-up codes and the names of their methods */
    Map<Integer, Map<String, String>> wakeMethods = new java.util.HashMap<>();

    /**
     * Wake-up code as written in a chunk: short code inline, longer code (a value read under the selects of
     * many readers wakes each of them with a test) as a call to a method of the chunk's class. The code runs
     * only when the value changed; out of line it no longer counts against the chunk's 8,000 bytecode bytes,
     * which HotSpot's JIT will not compile past.
     */
    String wake(String code) {
        if (code.length() <= INLINE_WAKE_MAX || chunk == null) {
            return code;
        }
        Map<String, String> mine = wakeMethods.computeIfAbsent(chunkIndex, k -> new java.util.LinkedHashMap<>());
        String name = mine.computeIfAbsent(code, k -> "w" + chunkIndex + "_" + mine.size());
        return name + "(v, act);";
    }

    /** the clock-edge code (checks, memory writes) reads a counter, so the design never sleeps */
    boolean counterReadAtEdge;

    /** slots of the counters, and the mux selects enclosing the expression being generated (innermost first) */
    final java.util.Set<Integer> counterSlots = new java.util.HashSet<>();
    final java.util.ArrayDeque<Guard> guards = new java.util.ArrayDeque<>();

    EmitState(Netlist net, SlotLayout layout) {
        this.net = net;
        this.layout = layout;
        for (Bits c : layout.counters) {
            counterSlots.add(layout.nslot.get(c));
        }
    }

    /** Java array holding n (after aliasing): "v" or "w". */
    String arr(Bits n) {
        return wide(layout.rep(n)) ? "w" : "v";
    }

    /** Index of n's storage in its array. */
    int off(Bits n) {
        Bits r = layout.rep(n);
        int s = layout.slot(r);
        if (chunk != null) {
            read(wide(r), s);
        }
        return s;
    }

    /**
     * Inside a chunk method every slot is loaded into a local at most once: HotSpot cannot tell the
     * elements of {@code v} apart, so each store to {@code v} would otherwise force reloads.
     */
    String slotRead(int slot) {
        if (chunk == null) {
            mustStore.add(slot);
            counterReadAtEdge |= counterSlots.contains(slot);
            return "v[" + slot + "]";
        }
        read(false, slot);
        String name = chunk.locals.get(slot);
        if (name == null) {
            Integer producer = computedIn.get(slot);
            if (producer != null && producer != chunkIndex) {
                mustStore.add(slot);
            }
            name = "x" + slot;
            chunk.locals.put(slot, name);
            chunk.added.add(slot);
            chunk.preload.append("final long ").append(name).append(" = v[").append(slot).append("]; ");
        }
        return name;
    }

    /** Records a read of a slot by the chunk being emitted, with the innermost arm around it. */
    void read(boolean isWide, int slot) {
        chunk.reads.add(new int[] {isWide ? 1 : 0, slot, guards.isEmpty() ? -1 : guardKey(guards.peek())});
    }

    /** Locals of the chunk method being emitted, and loads the next statement needs first. */
    static final class Chunk {
        final Map<Integer, String> locals = new java.util.HashMap<>();
        final List<Integer> added = new ArrayList<>();
        final StringBuilder preload = new StringBuilder();
        /**
         * every read of a narrow or wide slot by the chunk's statements (its own results included), as
         * {1 if wide, slot, {@link #guardKey} of the mux arm it sits in}; and every memory read
         */
        final List<int[]> reads = new ArrayList<>();
        final List<Integer> memReads = new ArrayList<>();
        final List<Integer> wProduced = new ArrayList<>();
        /** module instances whose logic the chunk holds, in order, and its source size */
        final java.util.LinkedHashSet<String> owners = new java.util.LinkedHashSet<>();
        int chars;
        /** fast variant: some value stayed in a local, so the stored one is stale */
        boolean unstored;
    }

    /** Index of a memory in {@code m}, recorded as read by the chunk being emitted. */
    int memRef(Mem<?> mem) {
        int k = layout.memIndex.get(mem);
        if (chunk != null) {
            chunk.memReads.add(k);
        }
        return k;
    }

    /** An arm of a two-way select: the first ({@code one}, taken while the select is 1) or the second. */
    record Guard(Bits select, boolean one) {
    }

    /**
     * Generates an arm of a select whose Java condition is {@code c}, with the reads in it recorded as
     * guarded by that arm; under a constant condition the enclosing arms guard them.
     */
    String inArm(Bits select, String c, boolean one, java.util.function.Supplier<String> arm) {
        if (c.equals(NarrowEmitter.ONE) || c.equals(NarrowEmitter.ZERO)) {
            return arm.get();
        }
        guards.push(new Guard(select, one));
        try {
            return arm.get();
        } finally {
            guards.pop();
        }
    }

    /**
     * {@code 2 * slot + 1} for the first arm of a stored select, {@code 2 * slot} for its second, -1 when the
     * select has no storage (the read counts as unguarded).
     */
    int guardKey(Guard g) {
        Integer slot = layout.nslot.get(layout.rep(g.select()));
        return slot == null ? -1 : 2 * slot + (g.one() ? 1 : 0);
    }
}
