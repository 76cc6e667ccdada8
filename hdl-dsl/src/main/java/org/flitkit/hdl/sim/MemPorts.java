package org.flitkit.hdl.sim;

/**
 * Memory accesses for generated code, with the project-wide rule for addresses past the depth:
 * reads give 0, writes are ignored (the emitted Verilog guards the same way). Reads take the array
 * of the word width ({@link Memories}) and zero-extend; writes take the memory's index, because the
 * first write into an array shared with another instance copies it.
 */
public final class MemPorts {
    private MemPorts() {
    }

    public static long read8(byte[] mem, long addr, int depth) {
        return addr >= 0 && addr < depth ? mem[(int) addr] & 0xFFL : 0L;
    }

    public static long read16(short[] mem, long addr, int depth) {
        return addr >= 0 && addr < depth ? mem[(int) addr] & 0xFFFFL : 0L;
    }

    public static long read32(int[] mem, long addr, int depth) {
        return addr >= 0 && addr < depth ? mem[(int) addr] & 0xFFFFFFFFL : 0L;
    }

    public static long read64(long[] mem, long addr, int depth) {
        return addr >= 0 && addr < depth ? mem[(int) addr] : 0L;
    }

    /** Word {@code addr} of a memory of wide words into {@code d}. */
    public static void readWide(long[] mem, long addr, int depth, long[] d, int doff, int width) {
        int l = Wide.limbs(width);
        if (addr >= 0 && addr < depth) {
            System.arraycopy(mem, (int) addr * l, d, doff, l);
        } else {
            Wide.zero(d, doff, width);
        }
    }

    public static void write8(Memories m, int k, long addr, int depth, long data) {
        if (addr >= 0 && addr < depth) {
            m.bytes(k)[(int) addr] = (byte) data;
        }
    }

    public static void write16(Memories m, int k, long addr, int depth, long data) {
        if (addr >= 0 && addr < depth) {
            m.shorts(k)[(int) addr] = (short) data;
        }
    }

    public static void write32(Memories m, int k, long addr, int depth, long data) {
        if (addr >= 0 && addr < depth) {
            m.ints(k)[(int) addr] = (int) data;
        }
    }

    public static void write64(Memories m, int k, long addr, int depth, long data) {
        if (addr >= 0 && addr < depth) {
            m.longs(k)[(int) addr] = data;
        }
    }

    public static void writeWide(Memories m, int k, long addr, int depth, long[] a, int aoff, int width) {
        if (addr >= 0 && addr < depth) {
            int l = Wide.limbs(width);
            System.arraycopy(a, aoff, m.longs(k), (int) addr * l, l);
        }
    }
}
