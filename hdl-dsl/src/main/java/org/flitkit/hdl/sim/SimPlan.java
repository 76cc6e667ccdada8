package org.flitkit.hdl.sim;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;

/**
 * What a {@link Simulator} needs to know of a design's generated code, besides the code itself: where each
 * signal is stored, the initial contents of the state arrays, which chunks wake on a poke, and how a quiet
 * design skips time (docs/simulator.md). Built by {@link CodeGen} once; immutable.
 *
 * @param slots where each stored signal lives in {@code v} (narrow) or {@code w} (wide)
 * @param narrowSlots length of {@code v}
 * @param wideSlots length of {@code w}
 * @param wideConstants wide literals, stored in {@code w} before the first cycle
 * @param narrowConstants narrow literals passed by reference to wide operations, stored in {@code v}
 * @param inputReaders per top-level input, the flag words of the chunks that read it (woken when a poke changes it)
 * @param quietMask per flag word, the chunks that may be up while the design is quiet (counters' own chunks)
 * @param counterSteps {slot, index in nx, step, mask} of each free-running counter
 * @param counterMatches {slot, counter's slot, constant, 1 if negated (NE, ORR), step, mask} of each comparison of a counter with a
 *                       constant: a quiet design skips no further than the next change of one
 * @param sleepable no check or print reads a counter at the clock edge, so the design can be quiet
 * @param chunkModules per chunk of the flagged variants, the module instances it holds (for profiles)
 * @param chunkChars per chunk, its source size
 */
record SimPlan(SlotMap slots, int narrowSlots, int wideSlots, List<Constant> wideConstants, List<Constant> narrowConstants,
        Map<Bits, long[]> inputReaders, long[] quietMask, long[][] counterSteps, long[][] counterMatches, boolean sleepable, List<String> chunkModules,
        List<Integer> chunkChars) {

    /** Initial contents of {@code limbs.length} slots from {@code slot} on (one limb for a narrow constant). */
    record Constant(int slot, long[] limbs) {
    }

    SimPlan {
        wideConstants = List.copyOf(wideConstants);
        narrowConstants = List.copyOf(narrowConstants);
        inputReaders = Collections.unmodifiableMap(new IdentityHashMap<>(inputReaders));
        chunkModules = List.copyOf(chunkModules);
        chunkChars = List.copyOf(chunkChars);
    }

    /**
     * Narrow and wide slots by node, and the node whose storage each wire or reinterpretation shares.
     */
    record SlotMap(Map<Bits, Integer> narrow, Map<Bits, Integer> wide, Map<Bits, Bits> aliasOf) {
        SlotMap {
            narrow = Collections.unmodifiableMap(new IdentityHashMap<>(narrow));
            wide = Collections.unmodifiableMap(new IdentityHashMap<>(wide));
            aliasOf = Collections.unmodifiableMap(new IdentityHashMap<>(aliasOf));
        }

        /** The node whose storage holds n's value (n itself unless n is a wire or reinterpretation). */
        Bits rep(Bits n) {
            Bits a = aliasOf.get(n);
            return a == null ? n : rep(a);
        }

        /** Index of n's storage in {@code v} or {@code w}; an {@link IllegalStateException} if n has none. */
        int slot(Bits n) {
            Bits r = rep(n);
            Integer s = r.width() > 64 ? wide.get(r) : narrow.get(r);
            if (s == null) {
                throw new IllegalStateException("no slot for " + r + " (" + r.kind() + " " + r.op() + ")");
            }
            return s;
        }
    }
}
