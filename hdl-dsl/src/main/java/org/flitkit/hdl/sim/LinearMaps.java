package org.flitkit.hdl.sim;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Linear maps over GF(2) of wide values, up to 32 output bits, for generated code: the equations of a
 * parallel CRC, where each output bit is the parity of the input under a constant mask. The code
 * generator turns the masks into a table (see {@code NarrowEmitter.linearCat}) and registers it here once;
 * {@link #apply} then costs one lookup per input byte instead of one pass over all limbs per output bit.
 *
 * <p>Table layout: for limb {@code i} of the input, byte {@code b} of that limb and byte value {@code v},
 * entry {@code (8 * i + b) * 256 + v} is the XOR of the output columns of the input bits set in {@code v}.
 * Tables are shared by every design and instance that needs an equal one, and never change once registered.
 */
public final class LinearMaps {
    private static volatile int[][] tables = new int[0][];
    private static final Map<IntBuffer, Integer> IDS = new HashMap<>();

    private LinearMaps() {
    }

    /** The id under which {@link #apply} finds {@code table}; an equal table registered before keeps its id. */
    public static synchronized int register(int[] table) {
        return IDS.computeIfAbsent(IntBuffer.wrap(table.clone()), k -> {
            int[][] t = Arrays.copyOf(tables, tables.length + 1);
            t[t.length - 1] = k.array();
            tables = t;
            return t.length - 1;
        });
    }

    /** The table registered under {@code id} (read-only by contract). */
    static int[] table(int id) {
        return tables[id];
    }

    /** Map {@code table} of the {@code limbs}-limb value at {@code a[aoff..]}: the output bits, as an unsigned 32-bit value. */
    public static long apply(long[] a, int aoff, int table, int limbs) {
        final int[] t = tables[table];
        int c0 = 0;
        int c1 = 0;
        for (int i = 0, base = 0; i < limbs; i++, base += 2048) {
            final long x = a[aoff + i];
            // two accumulators: the lookups of one limb do not wait for each other
            c0 ^= t[base + (int) (x & 0xff)] ^ t[base + 256 + (int) ((x >>> 8) & 0xff)]
                    ^ t[base + 512 + (int) ((x >>> 16) & 0xff)] ^ t[base + 768 + (int) ((x >>> 24) & 0xff)];
            c1 ^= t[base + 1024 + (int) ((x >>> 32) & 0xff)] ^ t[base + 1280 + (int) ((x >>> 40) & 0xff)]
                    ^ t[base + 1536 + (int) ((x >>> 48) & 0xff)] ^ t[base + 1792 + (int) (x >>> 56)];
        }
        return (c0 ^ c1) & 0xffffffffL;
    }
}
