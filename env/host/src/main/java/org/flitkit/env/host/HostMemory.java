package org.flitkit.env.host;

import java.util.HashMap;
import java.util.Map;

/**
 * Byte-addressed host memory of the NIC models, sparse (4 KiB pages allocated on first write; unwritten bytes
 * read as zero), with the little-endian integer accessors host software uses to read rings and descriptors.
 */
public final class HostMemory {
    private static final int PAGE_BITS = 12;
    private static final int PAGE = 1 << PAGE_BITS;
    private final Map<Long, byte[]> pages = new HashMap<>();

    public void write(long addr, byte[] data) {
        write(addr, data, 0, data.length);
    }

    public void write(long addr, byte[] data, int offset, int length) {
        checkRange(addr, length);
        for (int i = 0; i < length; i++) {
            long a = addr + i;
            pages.computeIfAbsent(a >>> PAGE_BITS, k -> new byte[PAGE])[(int) (a & (PAGE - 1))] = data[offset + i];
        }
    }

    public byte[] read(long addr, int length) {
        checkRange(addr, length);
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            long a = addr + i;
            byte[] page = pages.get(a >>> PAGE_BITS);
            out[i] = page == null ? 0 : page[(int) (a & (PAGE - 1))];
        }
        return out;
    }

    /** The little-endian unsigned value of {@code bytes} (1..8) bytes at {@code addr}. */
    public long readLe(long addr, int bytes) {
        if (bytes < 1 || bytes > 8) {
            throw new IllegalArgumentException("readLe reads 1..8 bytes, not " + bytes);
        }
        byte[] b = read(addr, bytes);
        long v = 0;
        for (int i = bytes - 1; i >= 0; i--) {
            v = v << 8 | (b[i] & 0xFF);
        }
        return v;
    }

    public void writeLe(long addr, long value, int bytes) {
        if (bytes < 1 || bytes > 8) {
            throw new IllegalArgumentException("writeLe writes 1..8 bytes, not " + bytes);
        }
        byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            b[i] = (byte) (value >>> 8 * i);
        }
        write(addr, b);
    }

    /** Pages allocated so far (each {@value #PAGE} bytes). */
    public int pages() {
        return pages.size();
    }

    private static void checkRange(long addr, int length) {
        if (addr < 0 || length < 0 || addr + length < addr) {
            throw new IllegalArgumentException("bad host memory range: address 0x" + Long.toHexString(addr) + ", " + length + " bytes");
        }
    }
}
