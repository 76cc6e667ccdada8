package org.flitkit.hdl.sim;

/**
 * Base of every generated simulator class: the design's whole state in dense arrays. {@code v} holds
 * signals up to 64 bits (one long each), {@code w} wider ones as 64-bit limbs, {@code nx}/{@code nxw}
 * the next state computed before a clock edge, {@code m} one array per memory.
 */
public abstract class SimModel {
    public final long[] v;
    public final long[] w;
    public final long[] nx;
    public final long[] nxw;
    public final long[][] m;
    /** the synchronous reset input, read while computing next state */
    public boolean reset;

    /** activity words: [0] skipping enabled, [1] skips, [2] generation, then remembered chunk inputs */
    public final long[] act;
    /** chunks of the fast variant that can skip themselves */
    public final int skippableChunks;
    /** receives the assertions and prints that fire at a clock edge (set when the design has any) */
    public Events events;

    /** What the generated {@link #commit()} calls when check {@code id} of the netlist fires. */
    public interface Events {
        void fire(int id);
    }

    protected SimModel(int nv, int nw, int nnx, int nnxw, int actWords, long skippable, int[] memSizes) {
        act = new long[actWords];
        act[0] = 1;
        act[2] = 1;
        skippableChunks = (int) skippable;
        v = new long[nv];
        w = new long[nw];
        nx = new long[nnx];
        nxw = new long[nnxw];
        m = new long[memSizes.length][];
        for (int i = 0; i < memSizes.length; i++) {
            m[i] = new long[memSizes[i]];
        }
    }

    /** Settles all combinational logic from inputs and state, and computes the next state. */
    public abstract void evalComb();

    /** Same as {@link #evalComb} but keeps values nobody outside reads in locals: for cycles nobody observes. */
    public abstract void evalFast();

    /**
     * The rising clock edge: assertions and prints (unless in reset) on the values of the ending cycle,
     * then memory writes, then the computed next state becomes the state.
     */
    public abstract void commit();
}
