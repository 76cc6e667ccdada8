package org.flitkit.hdl.sim;

/**
 * Base of every generated simulator class: the design's whole state in dense arrays. {@code v} holds
 * signals up to 64 bits (one long each), {@code w} wider ones as 64-bit limbs, {@code nx}/{@code nxw}
 * the next state computed before a clock edge, {@code m} the memories ({@link Memories}).
 */
public abstract class SimModel {
    public final long[] v;
    public final long[] w;
    public final long[] nx;
    public final long[] nxw;
    public final Memories m;
    /** the synchronous reset input, read while computing next state */
    public boolean reset;

    /**
     * Activity flags: {@code act[0]} skipping on, {@code act[1]} skipped chunk runs, then from
     * {@link #FLAGS} one bit per chunk in three groups of {@link #flagWords} words: the chunks to run
     * this cycle (a value they read changed), those woken for the next cycle (a register or memory they
     * read changes at the edge), those whose stored values are stale (the fast variant kept them in
     * locals), and those the storing variant ran since {@link Simulator#profileChunks} last looked.
     */
    public final long[] act;
    public static final int FLAGS = 4;
    public final int flagWords;
    /** number of chunks */
    public final int chunks;
    /** receives the assertions and prints that fire at a clock edge (set when the design has any) */
    public Events events;

    /** What the generated {@link #commit()} calls when check {@code id} of the netlist fires. */
    public interface Events {
        void fire(int id);
    }

    protected SimModel(int nv, int nw, int nnx, int nnxw, int chunks, int memories) {
        this.chunks = chunks;
        flagWords = (chunks + 63) >>> 6;
        act = new long[FLAGS + 4 * flagWords];
        act[0] = 1;
        wakeAll();
        v = new long[nv];
        w = new long[nw];
        nx = new long[nnx];
        nxw = new long[nnxw];
        // no arrays yet: the simulator shares the design's initial images or a parent's arrays in
        m = new Memories(memories);
    }

    /** Every chunk runs in the next evaluation (after reset, pokes of memories, or switching skipping on). */
    public final void wakeAll() {
        for (int i = 0; i < flagWords; i++) {
            act[FLAGS + i] = validBits(chunks, i);
        }
    }

    /** The bits of flag word {@code word} that stand for one of {@code chunks} chunks. */
    public static long validBits(int chunks, int word) {
        int n = chunks - 64 * word;
        return n >= 64 ? -1L : (1L << n) - 1;
    }

    /** The chunks in {@code words} (a chunk bit set) run in the next evaluation. */
    public final void wake(long[] words) {
        for (int i = 0; i < words.length; i++) {
            act[FLAGS + i] |= words[i];
        }
    }

    /** Settles all combinational logic from inputs and state, and computes the next state. */
    public abstract void evalComb();

    /**
     * The rising clock edge: assertions and prints (unless in reset) on the values of the ending cycle,
     * then memory writes, then the computed next state becomes the state.
     */
    public abstract void commit();

    /**
     * A way to evaluate a cycle other than {@link #evalComb}, with the clock edge that goes with it:
     * exact like it, faster for cycles nobody observes. Generated and compiled apart from the model
     * class, against it, so a simulator can start before its variants are compiled.
     */
    public abstract static class Variant {
        /**
         * Computes the next state of {@code model} like {@link #evalComb}, but may leave values nobody
         * reads at the clock edge stale (marked in the flags, or all of them: then the caller wakes all).
         */
        public abstract void eval(SimModel model);

        /** The clock edge after {@link #eval}. */
        public abstract void commit(SimModel model);
    }
}
