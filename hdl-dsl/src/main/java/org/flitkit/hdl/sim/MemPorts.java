package org.flitkit.hdl.sim;

/**
 * Memory accesses for generated code, with the project-wide rule for addresses past the depth:
 * reads give 0, writes are ignored (the emitted Verilog guards the same way).
 */
public final class MemPorts {
    private MemPorts() {
    }

    public static long memRead(long[] mem, long addr, int depth) {
        return addr >= 0 && addr < depth ? mem[(int) addr] : 0L;
    }

    public static void memWrite(long[] mem, long addr, int depth, long data) {
        if (addr >= 0 && addr < depth) {
            mem[(int) addr] = data;
        }
    }

    /** Word {@code addr} of a memory of wide words into {@code d}. */
    public static void memReadWide(long[] mem, long addr, int depth, long[] d, int doff, int width) {
        int l = Wide.limbs(width);
        if (addr >= 0 && addr < depth) {
            System.arraycopy(mem, (int) addr * l, d, doff, l);
        } else {
            Wide.zero(d, doff, width);
        }
    }

    public static void memWriteWide(long[] mem, long addr, int depth, long[] a, int aoff, int width) {
        if (addr >= 0 && addr < depth) {
            int l = Wide.limbs(width);
            System.arraycopy(a, aoff, mem, (int) addr * l, l);
        }
    }
}
