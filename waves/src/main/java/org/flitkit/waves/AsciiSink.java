package org.flitkit.waves;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte buffer in front of an {@link OutputStream} that encodes ASCII text itself, so the VCD hot
 * path never allocates (no Strings, no boxing, no charset encoder). I/O failures are rethrown as
 * {@link UncheckedIOException} so the per-value API stays free of checked exceptions.
 */
final class AsciiSink {
    private static final VarHandle EIGHT_BYTES = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** BYTE_DIGITS[b] holds the eight characters '0'/'1' of b, most significant first, as a big-endian long. */
    private static final long[] BYTE_DIGITS = new long[256];

    static {
        for (int b = 0; b < 256; b++) {
            long digits = 0;
            for (int bit = 7; bit >= 0; bit--) {
                digits = (digits << 8) | ('0' + ((b >>> bit) & 1));
            }
            BYTE_DIGITS[b] = digits;
        }
    }

    private final OutputStream out;
    private byte[] buf;
    private int pos;
    /** Bytes handed to {@code out} so far; with {@code pos} the size of everything written. */
    private long drained;
    /** Scratch for decimal conversion; 20 digits hold any non-negative long. */
    private final byte[] digits = new byte[20];

    AsciiSink(OutputStream out, int capacity) {
        this.out = out;
        this.buf = new byte[capacity];
    }

    /**
     * Guarantees {@code n} free bytes, flushing if necessary; callers reserve once per record so the
     * per-byte writes below need no bounds logic. Growing only happens for records larger than the
     * whole buffer (very wide vectors), and at most once per new maximum.
     */
    void reserve(int n) {
        if (pos + n <= buf.length) {
            return;
        }
        drain();
        if (n > buf.length) {
            buf = new byte[Math.max(n, buf.length * 2)];
        }
    }

    /** Unchecked byte write; only valid after {@link #reserve}. */
    void put(char c) {
        buf[pos++] = (byte) c;
    }

    /**
     * Unchecked write of the {@code count} low bits of {@code bits}, most significant first. Whole
     * bytes go out as eight ASCII digits in one store, which matters for wide buses.
     */
    void putBinary(long bits, int count) {
        int i = count;
        for (; (i & 7) != 0; i--) {
            buf[pos++] = (byte) ('0' + (int) ((bits >>> (i - 1)) & 1L));
        }
        for (; i > 0; i -= 8) {
            EIGHT_BYTES.set(buf, pos, BYTE_DIGITS[(int) (bits >>> (i - 8)) & 0xFF]);
            pos += 8;
        }
    }

    /** Unchecked copy; only valid after {@link #reserve}. */
    void put(byte[] bytes) {
        System.arraycopy(bytes, 0, buf, pos, bytes.length);
        pos += bytes.length;
    }

    /** Writes a non-negative decimal number (VCD timestamps) without allocating. */
    void putDecimal(long value) {
        int n = 0;
        do {
            digits[n++] = (byte) ('0' + (int) (value % 10));
            value /= 10;
        } while (value != 0);
        reserve(n);
        while (n > 0) {
            buf[pos++] = digits[--n];
        }
    }

    /** Cold-path convenience for header text; characters must be ASCII. */
    void text(String s) {
        reserve(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[pos++] = (byte) s.charAt(i);
        }
    }

    /** Bytes written so far, including those still in the buffer. */
    long written() {
        return drained + pos;
    }

    void drain() {
        try {
            out.write(buf, 0, pos);
            drained += pos;
            pos = 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void flush() {
        drain();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void close() {
        try (out) {
            drain();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
