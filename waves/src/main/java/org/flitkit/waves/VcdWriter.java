package org.flitkit.waves;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Streaming IEEE 1364 value change dump writer built for simulators that report every signal on
 * every cycle: it remembers the last value of each signal and writes only real changes.
 *
 * <p>Life cycle: declare the hierarchy with {@link #root}, {@link Scope#child}, {@link Scope#wire}
 * and {@link Scope#reg}; then alternate {@link #time} and {@link #value}; finally {@link #close}.
 * The header is written at the first {@code time} call. Values given at that first timestamp form
 * the {@code $dumpvars} block, which lists every signal; signals not given a value by then are
 * dumped as 0 (simulated state starts at reset, so 0 is more useful in a viewer than {@code x}).
 * A {@code #t} line is written lazily, only when a change at {@code t} follows.
 *
 * <p>Performance: the hot path ({@code time}, {@code value}) does not allocate; binary digits go
 * straight into a 64 KiB byte buffer, eight per store. On one core of the development machine it
 * writes about 20 million change lines (1 GB of VCD text) per second, so the disk is the limit;
 * {@code VcdWriterThroughput} in the test sources measures it.
 * Not thread-safe. I/O errors surface as {@link UncheckedIOException}.
 *
 * <p>Size: with a {@link #limit} the writer stops at the first new timestamp after the file has
 * passed that many bytes: it flushes what it has (a valid dump ending with a complete timestamp),
 * throws {@link VcdLimitExceeded} once, and from then on ignores {@code time} and {@code value}, so
 * the simulation around it can shut down and {@link #close} as usual.
 */
public final class VcdWriter implements AutoCloseable {
    private static final int BUFFER_BYTES = 1 << 16;
    private static final String VERSION = "FlitKit jvcd " + Objects.requireNonNullElse(
            VcdWriter.class.getPackage().getImplementationVersion(), "dev");

    private enum Phase { DECLARING, INITIAL, RUNNING, LIMITED, CLOSED }

    private final AsciiSink out;
    private final Timescale timescale;
    private final List<Scope> roots = new ArrayList<>();
    private final NameTable rootNames = new NameTable("the top level");
    private String date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    private long limit = Long.MAX_VALUE;
    private long clockPeriod;
    private long endTime;

    private Phase phase = Phase.DECLARING;
    private long now;
    private boolean nowWritten;
    private long lastWrittenTime = -1;

    // Per-signal tables, indexed by handle. Values live in 'state' as little-endian 64-bit limbs
    // from offsets[id] (inclusive) to offsets[id + 1] (exclusive).
    private int count;
    private int[] widths = new int[64];
    private long[] topMasks = new long[64];
    private byte[][] codes = new byte[64][];
    private int[] offsets = new int[65];
    private long[] state = new long[64];

    /** Opens (truncating) {@code file}; {@code timescaleValue} must be 1, 10 or 100. */
    public VcdWriter(Path file, long timescaleValue, String timescaleUnit) {
        this(file, new Timescale(checkMagnitude(timescaleValue), timescaleUnit));
    }

    /** Opens (truncating) {@code file}, e.g. with a timescale from {@link Timescale#forPeriod}. */
    public VcdWriter(Path file, Timescale timescale) {
        this(open(file), timescale);
    }

    /** Writes to {@code out}, which is closed by {@link #close}; handy for in-memory tests. */
    public VcdWriter(OutputStream out, Timescale timescale) {
        this.out = new AsciiSink(Objects.requireNonNull(out, "out"), BUFFER_BYTES);
        this.timescale = Objects.requireNonNull(timescale, "timescale");
    }

    /**
     * Replaces the {@code $date} text (default: current UTC instant), e.g. to make output byte-for-byte
     * reproducible in golden-file tests. Only allowed before the header is written.
     */
    public VcdWriter date(String text) {
        checkDeclaring();
        if (text.contains("$end")) {
            throw new IllegalArgumentException("date text must not contain $end: " + text);
        }
        this.date = text;
        return this;
    }

    /**
     * Stops the dump once the file has passed {@code bytes} (see the class comment); unlimited by
     * default. Only allowed before the header is written.
     */
    public VcdWriter limit(long bytes) {
        checkDeclaring();
        if (bytes < 1) {
            throw new IllegalArgumentException("VCD size limit must be at least 1 byte, got " + bytes);
        }
        this.limit = bytes;
        return this;
    }

    /**
     * Tells the writer the clock period in timescale ticks, so that {@link VcdLimitExceeded} can say
     * in which cycle the dump stopped. Only allowed before the header is written.
     */
    public VcdWriter clockPeriod(long ticks) {
        checkDeclaring();
        if (ticks < 1) {
            throw new IllegalArgumentException("clock period must be at least 1 tick, got " + ticks);
        }
        this.clockPeriod = ticks;
        return this;
    }

    /** Declares a top-level scope; several are allowed, but their names must differ. */
    public Scope root(String name) {
        checkDeclaring();
        Scope scope = new Scope(this, rootNames.claim(name), null);
        roots.add(scope);
        return scope;
    }

    /**
     * Advances simulation time to {@code t} (in timescale ticks). Time may stay equal but never go
     * back, because VCD consumers assume sorted timestamps. The first call writes the header.
     */
    public void time(long t) {
        if (phase == Phase.RUNNING) {
            advance(t);
        } else if (phase == Phase.LIMITED) {
            return;
        } else if (phase == Phase.INITIAL) {
            checkNotBefore(t);
            if (t != now) {
                writeDumpvars(); // closes the initial block at its own timestamp
                phase = Phase.RUNNING;
                advance(t);
            }
        } else if (phase == Phase.DECLARING) {
            if (t < 0) {
                throw new IllegalArgumentException("time must be non-negative, got " + t);
            }
            writeDefinitions();
            now = t;
            phase = Phase.INITIAL;
        } else {
            throw closed();
        }
    }

    /**
     * Sets signal {@code id} to the low bits of {@code v}; bits above the signal's width are ignored
     * and, for signals wider than 64 bits, the upper limbs become zero. Writes nothing if unchanged.
     */
    public void value(int id, long v) {
        checkValuePhase();
        int off = offsets[Objects.checkIndex(id, count)];
        int end = offsets[id + 1];
        boolean changed = false;
        long low = end - off == 1 ? v & topMasks[id] : v;
        if (state[off] != low) {
            state[off] = low;
            changed = true;
        }
        for (int i = off + 1; i < end; i++) {
            if (state[i] != 0) {
                state[i] = 0;
                changed = true;
            }
        }
        if (changed && phase == Phase.RUNNING) {
            writeChange(id);
        }
    }

    /**
     * Sets a signal of any width from little-endian 64-bit limbs: {@code limbs[offset]} holds bits
     * 63..0, {@code limbs[offset + 1]} bits 127..64, and so on for {@code ceil(width / 64)} limbs.
     * Bits above the width are ignored. Writes nothing if unchanged.
     */
    public void value(int id, long[] limbs, int offset) {
        checkValuePhase();
        int off = offsets[Objects.checkIndex(id, count)];
        int n = offsets[id + 1] - off;
        Objects.checkFromIndexSize(offset, n, limbs.length);
        boolean changed = false;
        for (int i = 0; i < n; i++) {
            long limb = i == n - 1 ? limbs[offset + i] & topMasks[id] : limbs[offset + i];
            if (state[off + i] != limb) {
                state[off + i] = limb;
                changed = true;
            }
        }
        if (changed && phase == Phase.RUNNING) {
            writeChange(id);
        }
    }

    /** Pushes buffered output to the file so a viewer can reload it while simulation continues. */
    public void flush() {
        if (phase == Phase.INITIAL) {
            writeDumpvars();
            phase = Phase.RUNNING;
        }
        if (phase != Phase.CLOSED) {
            out.flush();
        }
    }

    /**
     * Completes the file: header and {@code $dumpvars} if still pending, and a final {@code #t} for
     * the last {@link #time} (or the later {@link #endTime}) so viewers show the last cycle even if
     * nothing changed in it.
     */
    @Override
    public void close() {
        if (phase == Phase.CLOSED) {
            return;
        }
        if (phase == Phase.DECLARING) {
            writeDefinitions();
        } else {
            if (phase == Phase.INITIAL) {
                writeDumpvars();
            }
            now = Math.max(now, endTime);
            if (now > lastWrittenTime) {
                writeTime();
            }
        }
        phase = Phase.CLOSED;
        out.close();
    }

    /**
     * Makes the dump last until {@code t} (timescale ticks) even if nothing changes after the last
     * {@link #time}: {@link #close} ends the file with {@code #t}, the last values holding until then.
     * For example the end of the clock cycle in which a simulation stopped.
     */
    public void endTime(long t) {
        if (t < 0) {
            throw new IllegalArgumentException("end time must not be negative, got " + t);
        }
        endTime = t;
    }

    /** Bytes written so far (header and values, including those still buffered). */
    public long written() {
        return out.written();
    }

    /** The timescale written in the header, for converting simulated time into ticks. */
    public Timescale timescale() {
        return timescale;
    }

    // ---- declaration support (called by Scope) ----

    void checkDeclaring() {
        if (phase != Phase.DECLARING) {
            throw new IllegalStateException("declarations are only allowed before the first time() call");
        }
    }

    int allocate(int width) {
        int limbs = (width + 63) >>> 6;
        if (count == widths.length) {
            int size = count * 2;
            widths = Arrays.copyOf(widths, size);
            topMasks = Arrays.copyOf(topMasks, size);
            codes = Arrays.copyOf(codes, size);
            offsets = Arrays.copyOf(offsets, size + 1);
        }
        int start = offsets[count];
        if (start + limbs > state.length) {
            state = Arrays.copyOf(state, Math.max(state.length * 2, start + limbs));
        }
        int id = count++;
        widths[id] = width;
        topMasks[id] = (width & 63) == 0 ? -1L : (1L << (width & 63)) - 1;
        codes[id] = IdCodes.encodeBytes(id);
        offsets[id + 1] = start + limbs;
        return id;
    }

    // ---- output ----

    private void advance(long t) {
        checkNotBefore(t);
        if (t != now) {
            // the block for 'now' is complete here, so stopping leaves a dump that ends cleanly
            if (out.written() > limit) {
                phase = Phase.LIMITED;
                out.flush();
                throw new VcdLimitExceeded(limit, out.written(), t, timescale, clockPeriod);
            }
            now = t;
            nowWritten = false;
        }
    }

    private void checkNotBefore(long t) {
        if (t < now) {
            throw new IllegalArgumentException("time must not decrease: " + t + " after " + now);
        }
    }

    private void writeDefinitions() {
        out.text("$date " + date + " $end\n");
        out.text("$version " + VERSION + " $end\n");
        out.text("$timescale " + timescale + " $end\n");
        for (Scope root : roots) {
            writeScope(root);
        }
        out.text("$enddefinitions $end\n");
    }

    private void writeScope(Scope scope) {
        out.text("$scope module " + scope.name() + " $end\n");
        for (Scope.Var v : scope.vars()) {
            String range = v.width() == 1 ? "" : " [" + (v.width() - 1) + ":0]";
            out.text("$var " + v.kind() + " " + v.width() + " " + IdCodes.encode(v.id()) + " " + v.name()
                    + range + " $end\n");
        }
        for (Scope child : scope.children()) {
            writeScope(child);
        }
        out.text("$upscope $end\n");
    }

    private void writeDumpvars() {
        writeTime();
        out.text("$dumpvars\n");
        for (int id = 0; id < count; id++) {
            writeValue(id);
        }
        out.text("$end\n");
    }

    private void writeTime() {
        out.reserve(1);
        out.put('#');
        out.putDecimal(now);
        out.reserve(1);
        out.put('\n');
        nowWritten = true;
        lastWrittenTime = now;
    }

    private void writeChange(int id) {
        if (!nowWritten) {
            writeTime();
        }
        writeValue(id);
    }

    private void writeValue(int id) {
        byte[] code = codes[id];
        int off = offsets[id];
        if (widths[id] == 1) {
            out.reserve(code.length + 2);
            out.put((char) ('0' + (int) state[off]));
        } else {
            int top = offsets[id + 1] - 1;
            while (top > off && state[top] == 0) {
                top--;
            }
            int topBits = Math.max(1, 64 - Long.numberOfLeadingZeros(state[top]));
            out.reserve(2 + topBits + 64 * (top - off) + code.length + 1);
            out.put('b');
            out.putBinary(state[top], topBits);
            for (int i = top - 1; i >= off; i--) {
                out.putBinary(state[i], 64);
            }
            out.put(' ');
        }
        out.put(code);
        out.put('\n');
    }

    private void checkValuePhase() {
        if (phase != Phase.RUNNING && phase != Phase.INITIAL && phase != Phase.LIMITED) {
            throw phase == Phase.CLOSED ? closed()
                    : new IllegalStateException("call time() before value(): the header is written at the first time()");
        }
    }

    private static IllegalStateException closed() {
        return new IllegalStateException("VcdWriter is closed");
    }

    private static int checkMagnitude(long value) {
        if (value != 1 && value != 10 && value != 100) {
            throw new IllegalArgumentException("timescale value must be 1, 10 or 100, got " + value);
        }
        return (int) value;
    }

    private static OutputStream open(Path file) {
        try {
            return Files.newOutputStream(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file, e);
        }
    }
}
