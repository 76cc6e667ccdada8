package org.flitkit.hdl.sim;

import static org.flitkit.hdl.sim.SourceText.*;
import static org.flitkit.hdl.sim.Wide.limbs;
import static org.flitkit.hdl.sim.Wide.maskOf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Netlist;
import org.flitkit.hdl.Op;

/**
 * The activity plan: from what each chunk of the flagged variants reads and computes, which chunks a change of
 * each value wakes (its readers' flags), which readers wake only while a select is in their arm (arm readers,
 * counters' guarded readers), and which wide values are compared with a shadow copy. Its output is the wake-up
 * code the emitters append to a statement; see docs/simulator.md, "Flags" and "Counters are read only under
 * their selects".
 */
final class ActivityPlan {
    /**
     * What one chunk of the flagged variants does, as its first emission recorded it: every read of a narrow or
     * wide slot as {1 if wide, slot, guard key of the innermost select arm around it or -1}, the memories it
     * reads, the wide slots it computes, the module instances it holds (in order) and its source size.
     */
    record ChunkUse(List<int[]> reads, List<Integer> memReads, List<Integer> wProduced, List<String> owners, int chars) {
    }

    private final Netlist net;
    private final SlotLayout layout;

    /** chunk that computes each narrow combinational slot */
    private final Map<Integer, Integer> computedIn;

    /** slots of the free-running counters */
    private final java.util.Set<Integer> counterSlots;

    /** selects (narrow slots) that arm readers test, so they must be stored */
    final java.util.Set<Integer> storedSelects = new java.util.HashSet<>();

    /** number of chunks, each with a flag bit: 64 to a word of {@code act} */
    final int chunkCount;

    /** chunks (other than the producer) that read each narrow slot, wide slot and memory */
    private final Map<Integer, java.util.BitSet> narrowConsumers = new java.util.HashMap<>();

    private final Map<Integer, java.util.BitSet> wideConsumers = new java.util.HashMap<>();

    private final Map<Integer, java.util.BitSet> memConsumers = new java.util.HashMap<>();

    /** offset in w of the last value of each wide slot read across chunks */
    private final Map<Integer, Integer> shadowOf = new java.util.HashMap<>();

    /** per counter slot: guard key -> chunks whose every read of the counter sits under that arm */
    private final Map<Integer, Map<Integer, java.util.BitSet>> guardedReaders = new java.util.TreeMap<>();

    /** per comb slot (narrow, wide): guard key -> later chunks whose every read of it sits in that arm */
    private final Map<Integer, Map<Integer, java.util.BitSet>> guardedNarrow = new java.util.HashMap<>();

    private final Map<Integer, Map<Integer, java.util.BitSet>> guardedWide = new java.util.HashMap<>();

    ActivityPlan(Netlist net, SlotLayout layout, List<ChunkUse> chunks, Map<Integer, Integer> computedIn, java.util.Set<Integer> counterSlots) {
        this.net = net;
        this.layout = layout;
        this.computedIn = Map.copyOf(computedIn);
        this.counterSlots = java.util.Set.copyOf(counterSlots);
        this.chunkCount = chunks.size();
        findConsumers(chunks);
    }

    /** Wake-up code of a combinational value computed at {@code slot} that changed (empty: nobody else reads it). */
    String combWake(boolean isWide, int slot) {
        return isWide ? combFlags(wideConsumers.get(slot), guardedWide.get(slot)) : combFlags(narrowConsumers.get(slot), guardedNarrow.get(slot));
    }

    /** Wake-up code, for the next cycle, of a state element at {@code slot} whose next value differs. */
    String nextWake(boolean isWide, int slot) {
        return flags("N", (isWide ? wideConsumers : narrowConsumers).get(slot));
    }

    /** Wake-up code, for the next cycle, of a write to memory {@code k}. */
    String memWake(int k) {
        return flags("N", memConsumers.get(k));
    }

    /** Offset in {@code w} of the shadow copy of the wide value at {@code slot}. */
    int shadowOf(int slot) {
        return shadowOf.get(slot);
    }

    int flagWords() {
        return (chunkCount + 63) >>> 6;
    }

    /** Chunks woken when top-level input slot {@code slot} changes (empty when none reads it). */
    java.util.BitSet inputReaders(Bits input) {
        int slot = layout.slot(layout.rep(input));
        java.util.BitSet b = (wide(input) ? wideConsumers : narrowConsumers).get(slot);
        return b == null ? new java.util.BitSet() : b;
    }

    /** {slot, index in nx, step, mask} of each counter: how a quiet design advances them over skipped cycles */
    long[][] counterSteps() {
        List<long[]> out = new ArrayList<>();
        for (Bits c : layout.counters) {
            Bits d = layout.throughWires(net.driverOf(c));
            Bits lit = layout.throughWires(d.args().get(0)) == c ? layout.throughWires(d.args().get(1)) : layout.throughWires(d.args().get(0));
            long step = lit.litValue().longValue();
            int slot = layout.nslot.get(c);
            out.add(new long[] {slot, slot - layout.stateBase, d.op() == Op.SUB ? -step : step, maskOf(c.width())});
        }
        return out.toArray(new long[0][]);
    }

    /**
     * {slot of the comparison, slot of its counter, the constant, 1 if negated (NE, ORR), the counter's step, its mask} of each
     * comparison of a counter with a constant: how far a quiet design may skip before one changes
     */
    long[][] counterMatches() {
        Map<Long, long[]> stepOf = new java.util.HashMap<>();
        for (long[] c : counterSteps()) {
            stepOf.put(c[0], c);
        }
        List<long[]> out = new ArrayList<>();
        layout.matches.forEach((cmp, m) -> {
            long[] c = stepOf.get((long) layout.nslot.get(m.counter()));
            out.add(new long[] {layout.slot(cmp), c[0], m.constant(), m.negated() ? 1 : 0, c[2], c[3]});
        });
        // in slot order, not the identity map's
        out.sort(java.util.Comparator.comparingLong(m -> m[0]));
        return out.toArray(new long[0][]);
    }

    /**
     * Readers that read a value only in arms of selects are woken by its change only while the select of
     * one of those arms has that arm's value (the select is given storage for the test):
     * <ul>
     * <li>a counter: the clock edge tests the selects when the counter steps ({@link #guardedWakes});
     * <li>a combinational value computed in another chunk (a packet offered to many ports, taken by one
     * that loads it): the producer tests them when the value changed. Exact: the reader reads the select,
     * so a select that changes in this cycle wakes the reader itself; one that does not still has the
     * value the producer reads.
     * </ul>
     * Every other read, and every read outside any arm, wakes the reader on every change.
     */
    private void splitArmReaders(List<ChunkUse> chunks, Map<Integer, Integer> wideProducer) {
        for (int c = 0; c < chunks.size(); c++) {
            // per read value (wide slots as ~slot): the arms it is read in, or null once read outside any
            Map<Integer, java.util.Set<Integer>> arms = new java.util.HashMap<>();
            for (int[] read : chunks.get(c).reads()) {
                int key = read[0] == 1 ? ~read[1] : read[1];
                if (read[2] < 0) {
                    arms.put(key, null);
                } else if (!arms.containsKey(key) || arms.get(key) != null) {
                    arms.computeIfAbsent(key, k -> new java.util.TreeSet<>()).add(read[2]);
                }
            }
            for (Map.Entry<Integer, java.util.Set<Integer>> e : arms.entrySet()) {
                if (e.getValue() == null) {
                    continue;
                }
                boolean isWide = e.getKey() < 0;
                int slot = isWide ? ~e.getKey() : e.getKey();
                Map<Integer, Map<Integer, java.util.BitSet>> guarded;
                if (!isWide && counterSlots.contains(slot)) {
                    guarded = guardedReaders;
                } else {
                    Integer producer = (isWide ? wideProducer : computedIn).get(slot);
                    if (producer == null || producer == c) {
                        continue;
                    }
                    guarded = isWide ? guardedWide : guardedNarrow;
                }
                (isWide ? wideConsumers : narrowConsumers).get(slot).clear(c);
                for (int g : e.getValue()) {
                    storedSelects.add(g >> 1);
                    guarded.computeIfAbsent(slot, k -> new java.util.TreeMap<>()).computeIfAbsent(g, k -> new java.util.BitSet()).set(c);
                }
            }
        }
    }

    /** Wake-up code of a changed combinational value: its readers, and its arm readers whose select is in their arm. */
    private String combFlags(java.util.BitSet readers, Map<Integer, java.util.BitSet> armReaders) {
        StringBuilder sb = new StringBuilder(flags("C", readers));
        if (armReaders != null) {
            for (Map.Entry<Integer, java.util.BitSet> g : armReaders.entrySet()) {
                sb.append(sb.length() == 0 ? "" : " ").append(armTest(g.getKey())).append(flags("C", g.getValue())).append(" }");
            }
        }
        return sb.toString();
    }

    /** {@code if (<the select of arm key> is in that arm) { } */
    private static String armTest(int key) {
        return "if (v[" + (key >> 1) + ((key & 1) != 0 ? "] != 0L) { " : "] == 0L) { ");
    }

    /** Commit statements waking the guarded readers of each counter that steps at this edge. */
    List<String> guardedWakes() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<Integer, Map<Integer, java.util.BitSet>> e : guardedReaders.entrySet()) {
            int slot = e.getKey();
            StringBuilder sb = new StringBuilder("if (nx[" + (slot - layout.stateBase) + "] != v[" + slot + "]) {");
            for (Map.Entry<Integer, java.util.BitSet> g : e.getValue().entrySet()) {
                sb.append(' ').append(armTest(g.getKey())).append(flags("N", g.getValue())).append(" }");
            }
            out.add(sb.append(" }").toString());
        }
        return out;
    }

    /** Per chunk of the activity-skipping variants: the module instances it holds and its source size (for profiles). */
    final List<String> chunkModules = new ArrayList<>();
    final List<Integer> chunkChars = new ArrayList<>();

    private void findConsumers(List<ChunkUse> chunks) {
        for (ChunkUse c : chunks) {
            List<String> os = c.owners();
            chunkModules.add(os.size() <= 2 ? String.join(", ", os) : os.get(0) + ", " + os.get(1) + " (+" + (os.size() - 2) + ")");
            chunkChars.add(c.chars());
        }
        Map<Integer, Integer> wideProducer = new java.util.HashMap<>();
        for (int c = 0; c < chunks.size(); c++) {
            for (int slot : chunks.get(c).wProduced()) {
                wideProducer.put(slot, c);
            }
        }
        for (int c = 0; c < chunks.size(); c++) {
            ChunkUse ch = chunks.get(c);
            for (int[] read : ch.reads()) {
                boolean isWide = read[0] == 1;
                Integer producer = (isWide ? wideProducer : computedIn).get(read[1]);
                if (producer == null || producer != c) {
                    (isWide ? wideConsumers : narrowConsumers).computeIfAbsent(read[1], k -> new java.util.BitSet()).set(c);
                }
            }
            for (int k : ch.memReads()) {
                memConsumers.computeIfAbsent(k, x -> new java.util.BitSet()).set(c);
            }
        }
        splitArmReaders(chunks, wideProducer);
        // in slot order, not the identity map's (which differs from run to run): the same design always
        // generates the same source
        java.util.TreeMap<Integer, Integer> widthAt = new java.util.TreeMap<>();
        layout.wslot.forEach((n, slot) -> widthAt.put(slot, n.width()));
        for (Map.Entry<Integer, Integer> e : widthAt.entrySet()) {
            if (wideProducer.containsKey(e.getKey()) && wideConsumers.containsKey(e.getKey())) {
                shadowOf.put(e.getKey(), layout.shadow(e.getValue()));
            }
        }
    }

    /** {@code act[word] |= bits;} for each word of a chunk set, in the current ("C") or next ("N") cycle's flags. */
    private String flags(String which, java.util.BitSet chunks) {
        if (chunks == null || chunks.isEmpty()) {
            return "";
        }
        int base = SimModel.FLAGS + ("N".equals(which) ? flagWords() : 0);
        StringBuilder sb = new StringBuilder();
        long[] words = chunks.toLongArray();
        for (int i = 0; i < words.length; i++) {
            if (words[i] != 0) {
                sb.append(sb.length() == 0 ? "" : " ").append("act[").append(base + i).append("] |= ").append(hex(words[i])).append(';');
            }
        }
        return sb.toString();
    }
}
