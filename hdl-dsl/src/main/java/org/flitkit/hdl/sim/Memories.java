package org.flitkit.hdl.sim;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.flitkit.hdl.Mem;

/**
 * The memories of one simulator instance, memory {@code k} in an array of its word width: {@code b[k]} for
 * up to 8 bits, {@code s[k]} up to 16, {@code i[k]} up to 32, {@code l[k]} up to 64 and, as 64-bit limbs,
 * wider (the other three slots of {@code k} stay null). Values are stored zero-extended, as in {@code v}.
 *
 * <p>Arrays are shared copy-on-write between the instances of one compiled design: a new instance starts
 * on the design's initial images, a fork on its parent's arrays, and the first write into a shared array
 * copies it ({@link MemPorts} asks {@link #bytes} and its siblings on the write path only; reads go to
 * the arrays directly).
 */
public final class Memories {
    public final byte[][] b;
    public final short[][] s;
    public final int[][] i;
    public final long[][] l;
    /** whether this instance is the only one holding memory k's array (writes go in place) */
    private final boolean[] owned;
    /** shared arrays this instance copied on a first write (for tests) */
    private int copies;

    Memories(int count) {
        b = new byte[count][];
        s = new short[count][];
        i = new int[count][];
        l = new long[count][];
        owned = new boolean[count];
    }

    /** Bits of a word stored in one array element: 8, 16, 32, or 64 (limbs, for any width over 32). */
    static int elementBits(int width) {
        return width <= 8 ? 8 : width <= 16 ? 16 : width <= 32 ? 32 : 64;
    }

    /** How generated code names memory k's array: {@code m.b[k]}, {@code m.s[k]}, {@code m.i[k]} or {@code m.l[k]}. */
    static String arrayRef(int k, int width) {
        String field = switch (elementBits(width)) {
            case 8 -> "b";
            case 16 -> "s";
            case 32 -> "i";
            default -> "l";
        };
        return "m." + field + "[" + k + "]";
    }

    /**
     * The initial contents of a design's memories (the declared image, else zeros), as the one
     * instance that all others start from: it is never written, so its arrays are shared for good.
     */
    static Memories initialImages(List<Mem<?>> mems) {
        Memories m = new Memories(mems.size());
        for (int k = 0; k < mems.size(); k++) {
            Mem<?> mem = mems.get(k);
            int width = mem.width();
            int words = width > 64 ? Wide.limbs(width) : 1;
            BigInteger[] init = mem.initContents();
            switch (elementBits(width)) {
                case 8 -> m.b[k] = new byte[mem.depth()];
                case 16 -> m.s[k] = new short[mem.depth()];
                case 32 -> m.i[k] = new int[mem.depth()];
                default -> m.l[k] = new long[mem.depth() * words];
            }
            for (int a = 0; init != null && a < init.length; a++) {
                long[] limbs = SourceText.limbsOf(init[a], width);
                switch (elementBits(width)) {
                    case 8 -> m.b[k][a] = (byte) limbs[0];
                    case 16 -> m.s[k][a] = (short) limbs[0];
                    case 32 -> m.i[k][a] = (int) limbs[0];
                    default -> System.arraycopy(limbs, 0, m.l[k], a * words, words);
                }
            }
        }
        return m;
    }

    /**
     * Takes {@code from}'s arrays as this instance's memories, shared by both from now on: the next write
     * on either side copies first, so neither sees the other's writes.
     */
    void share(Memories from) {
        System.arraycopy(from.b, 0, b, 0, b.length);
        System.arraycopy(from.s, 0, s, 0, s.length);
        System.arraycopy(from.i, 0, i, 0, i.length);
        System.arraycopy(from.l, 0, l, 0, l.length);
        Arrays.fill(owned, false);
        Arrays.fill(from.owned, false);
    }

    /** Memory k's array of bytes, copied first if shared. */
    public byte[] bytes(int k) {
        if (!owned[k]) {
            b[k] = b[k].clone();
            own(k);
        }
        return b[k];
    }

    public short[] shorts(int k) {
        if (!owned[k]) {
            s[k] = s[k].clone();
            own(k);
        }
        return s[k];
    }

    public int[] ints(int k) {
        if (!owned[k]) {
            i[k] = i[k].clone();
            own(k);
        }
        return i[k];
    }

    public long[] longs(int k) {
        if (!owned[k]) {
            l[k] = l[k].clone();
            own(k);
        }
        return l[k];
    }

    private void own(int k) {
        owned[k] = true;
        copies++;
    }

    /** Bytes of the memory arrays this instance owns ({@code owned} true) or shares ({@code false}). */
    long arrayBytes(boolean ownedOnes) {
        long n = 0;
        for (int k = 0; k < owned.length; k++) {
            if (owned[k] == ownedOnes) {
                n += b[k] != null ? b[k].length : s[k] != null ? 2L * s[k].length : i[k] != null ? 4L * i[k].length : 8L * l[k].length;
            }
        }
        return n;
    }

    /** Shared arrays copied by first writes since this instance was made. */
    int copies() {
        return copies;
    }

    /** Memory k's current array (for tests: identity tells shared from copied). */
    Object array(int k) {
        return b[k] != null ? b[k] : s[k] != null ? s[k] : i[k] != null ? i[k] : l[k];
    }
}
