package org.flitkit.waves;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A GTKWave save file ({@code .gtkw}) that opens a dump on the action: the chosen traces grouped
 * under one header per instance, each named by its full hierarchical path, vectors in hex and
 * scalars in binary, zoomed to a time window, optionally with the marker on a time of interest.
 *
 * <p>GTKWave's save file has no "end time": the window is its start ({@code [timestart]}) and a
 * zoom {@code z}, read as a {@code float}, from which GTKWave shows {@code F = (long) 2^-z} time units
 * per 200 pixels, so the wave pane of {@code W} pixels ends {@code floor(W * F / 200)} units after the
 * start. The file therefore also fixes the window geometry ({@code [size]}, the tree and signal pane
 * widths), and the signal pane is made a few pixels wider or narrower when that lets a whole {@code F}
 * end the view exactly on the window's end. GTKWave ignores a start whose window would run past the
 * end of the dump (it opens at 0), so windows must end within it. A window manager that shrinks the
 * window shows less of the end of the range; the start is always exact.
 *
 * <p>A trace may come with a translate filter (GTKWave's text filter file: a value as displayed, then the
 * text shown instead, one per line), e.g. an FSM's state names: {@link #write} puts each filter in a file
 * beside the save file, and the save file selects it with a {@code ^<n> <file>} line before the trace,
 * whose flags add GTKWave's "file translated" bit.
 */
public final class GtkwSaveFile {
    /** Window size written to {@code [size]}: fits a 1440x900 screen and most larger ones. */
    static final int WINDOW_WIDTH = 1440;
    static final int WINDOW_HEIGHT = 860;
    /**
     * Width of the signal search tree (SST) pane. GTKWave keeps it at least as wide as its own
     * buttons need (276 pixels on GTK 3's default theme) whatever the file says, so ask for more.
     */
    static final int SST_WIDTH = 300;
    /**
     * Pixels of the window width that belong to no pane: pane handles and the vertical scrollbar.
     * Measured with GTKWave 3.3.118 on GTK 3's default theme; the GTKWave test in the app module checks it.
     */
    static final int PANE_MARGIN = 24;
    /** GTKWave's zoom unit: {@code 2^-zoom} time units per this many pixels. */
    private static final int PIXELS_PER_FRAME = 200;
    /**
     * GTKWave widens the signal pane to its longest name (in its proportional font 8 pixels a character
     * on average, plus 38 of margins and group indent), which would move the window's end: so ask for
     * more than names need, by these estimates, and for room for a value when there is a marker.
     */
    private static final int NAME_CHAR_PIXELS = 9;
    private static final int NAME_MARGIN_PIXELS = 40;
    private static final int VALUE_CHARS = 12;
    private static final int MIN_SIGNALS_WIDTH = 160;
    private static final int MAX_SIGNALS_WIDTH = 600;
    /** How far the signal pane may move from the width the names want, to make the window end exact. */
    private static final int MAX_WIDTH_ADJUSTMENT = 40;

    /** GTKWave trace flags: right-justified hex (0x22) for vectors, right-justified binary (0x28) for scalars. */
    private static final String VECTOR_FLAGS = "@22";
    private static final String SCALAR_FLAGS = "@28";
    /** Right-justified hex through a translate filter file (TR_FTRANSLATED, 0x2000). */
    private static final String TRANSLATED_FLAGS = "@2022";
    /** A blank row that opens (0x800000) or closes (0x1000000) a group; its text is the group's name. */
    private static final String GROUP_BEGIN_FLAGS = "@800200";
    private static final String GROUP_END_FLAGS = "@1000200";
    /** Named markers A to Z, none set. */
    private static final String NO_NAMED_MARKERS = " -1".repeat(26);

    private final Path dumpFile;
    private final Timescale timescale;
    /** Traces by instance path, instances in the order of their first trace. */
    private final Map<String, List<Trace>> groups = new LinkedHashMap<>();
    private long windowStart;
    private long windowEnd = -1;
    private long marker = -1;

    /** {@code path} is dotted, without a range; {@code declared} is how the dump names it, with its range. */
    private record Trace(String path, String declared, boolean vector, String filter) {
        /** The displayed name: the full path with {@code /} between levels. GTKWave cuts any name at its
         *  last {@code .} (its {@code hier_max_level} setting, 1 by default), which would leave
         *  {@code in_valid} for both {@code top.in_valid} and {@code top.link.in_valid}. */
        String alias() {
            return path.replace('.', '/') + declared.substring(path.length());
        }

        /** The filter file for this trace, beside the save file {@code gtkw}. */
        Path filterFile(Path gtkw) {
            String base = gtkw.getFileName().toString().replaceFirst("\\.gtkw$", "");
            return gtkw.toAbsolutePath().normalize().resolveSibling(base + "." + path + ".filter");
        }
    }

    /**
     * Starts a save file for {@code dumpFile} written with {@code timescale}; times given to this class
     * are in its ticks. The path is written absolute so the file works from any directory.
     */
    public GtkwSaveFile(Path dumpFile, Timescale timescale) {
        this.dumpFile = dumpFile.toAbsolutePath().normalize();
        this.timescale = timescale;
    }

    /**
     * Writes {@code gtkw} showing {@code fullNames} (dotted, without ranges) of {@code vcd}. Widths,
     * ranges and the timescale come from the dump's header, so only that is read.
     *
     * @throws java.util.NoSuchElementException if a name is not declared in the dump
     */
    public static void write(Path gtkw, Path vcd, List<String> fullNames) {
        VcdReader header = VcdReader.readHeader(vcd);
        GtkwSaveFile save = new GtkwSaveFile(vcd, Timescale.parse(header.timescale()));
        for (String name : fullNames) {
            save.trace(header.signal(name));
        }
        save.write(gtkw);
    }

    /** Adds a trace declared by this library's {@link VcdWriter}, whose vectors are always {@code [width-1:0]}. */
    public GtkwSaveFile trace(String fullName, int width) {
        if (width < 1) {
            throw new IllegalArgumentException("width of '" + fullName + "' must be >= 1, got " + width);
        }
        return add(fullName, width == 1 ? fullName : fullName + "[" + (width - 1) + ":0]", width > 1, null);
    }

    /**
     * Adds a trace as {@link #trace(String, int)} shown through the translate filter {@code filterText}
     * (lines {@code <hex value> <name>}), e.g. an FSM's state register with its state names.
     */
    public GtkwSaveFile trace(String fullName, int width, String filterText) {
        if (width < 1) {
            throw new IllegalArgumentException("width of '" + fullName + "' must be >= 1, got " + width);
        }
        return add(fullName, width == 1 ? fullName : fullName + "[" + (width - 1) + ":0]", true, filterText);
    }

    /** Adds a trace exactly as declared in a parsed dump, keeping its original bit range. */
    public GtkwSaveFile trace(VcdReader.Signal signal) {
        return add(signal.name(), signal.name() + signal.range(), signal.width() > 1, null);
    }

    /** Opens the view on ticks {@code start} to {@code end} of the dump (default: GTKWave's own, from 0). */
    public GtkwSaveFile window(long start, long end) {
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException("window must satisfy 0 <= start < end, got " + start + " to " + end);
        }
        windowStart = start;
        windowEnd = end;
        return this;
    }

    /** Puts GTKWave's primary marker at tick {@code time}; its values show next to the trace names. */
    public GtkwSaveFile marker(long time) {
        if (time < 0) {
            throw new IllegalArgumentException("marker time must not be negative, got " + time);
        }
        marker = time;
        return this;
    }

    /** The signal pane width and the zoom GTKWave opens with. */
    private record Geometry(int signalsWidth, float zoom) {
    }

    /** The save file text, for a save file written beside the dump with the dump's name. */
    public String render() {
        return render(defaultSaveFile());
    }

    private Path defaultSaveFile() {
        return dumpFile.resolveSibling(dumpFile.getFileName().toString().replaceFirst("\\.[^.]*$", "") + ".gtkw");
    }

    /** The save file text for a save file at {@code gtkw} (filter files are named after it). */
    public String render(Path gtkw) {
        Geometry g = geometry();
        StringBuilder sb = new StringBuilder();
        sb.append("[*]\n[*] written by FlitKit jvcd\n[*]\n");
        sb.append("[dumpfile] \"").append(dumpFile).append("\"\n");
        sb.append("[timestart] ").append(gtkwaveTime(windowEnd < 0 ? 0 : windowStart)).append('\n');
        sb.append("[size] ").append(WINDOW_WIDTH).append(' ').append(WINDOW_HEIGHT).append('\n');
        sb.append("[pos] -1 -1\n");
        if (windowEnd >= 0 || marker >= 0) {
            sb.append('*').append(g.zoom()).append(' ')
                    .append(marker < 0 ? -1 : gtkwaveTime(marker)).append(NO_NAMED_MARKERS).append('\n');
        }
        sb.append("[sst_width] ").append(SST_WIDTH).append('\n');
        sb.append("[signals_width] ").append(g.signalsWidth()).append('\n');
        sb.append("[sst_expanded] 1\n");
        for (Map.Entry<String, List<Trace>> group : groups.entrySet()) {
            sb.append(GROUP_BEGIN_FLAGS).append("\n-").append(group.getKey()).append('\n');
            String flags = null;
            for (Trace trace : group.getValue()) {
                String wanted = trace.filter() != null ? TRANSLATED_FLAGS : trace.vector() ? VECTOR_FLAGS : SCALAR_FLAGS;
                if (!wanted.equals(flags)) {
                    sb.append(wanted).append('\n');
                    flags = wanted;
                }
                if (trace.filter() != null) {
                    // GTKWave numbers filter files from 1 and reuses the number of a file it already loaded
                    sb.append("^").append(filterNumber(trace, gtkw)).append(' ').append(trace.filterFile(gtkw)).append('\n');
                }
                sb.append("+{").append(trace.alias()).append("} ").append(trace.declared()).append('\n');
            }
            sb.append(GROUP_END_FLAGS).append("\n-").append(group.getKey()).append('\n');
        }
        return sb.toString();
    }

    /** Writes {@link #render(Path)} to {@code gtkw} and the translate filters beside it, replacing existing files. */
    public void write(Path gtkw) {
        try {
            for (Trace trace : filtered()) {
                Files.writeString(trace.filterFile(gtkw), trace.filter(), StandardCharsets.UTF_8);
            }
            Files.writeString(gtkw, render(gtkw), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + gtkw, e);
        }
    }

    private GtkwSaveFile add(String path, String declared, boolean vector, String filter) {
        int dot = path.lastIndexOf('.');
        String instance = dot < 0 ? "" : path.substring(0, dot);
        groups.computeIfAbsent(instance, k -> new ArrayList<>()).add(new Trace(path, declared, vector, filter));
        return this;
    }

    /** The traces with a translate filter, in display order. */
    private List<Trace> filtered() {
        List<Trace> out = new ArrayList<>();
        for (List<Trace> traces : groups.values()) {
            for (Trace t : traces) {
                if (t.filter() != null) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    /** The number GTKWave gives the filter file of {@code trace}: its position among the distinct filter files. */
    private int filterNumber(Trace trace, Path gtkw) {
        List<Path> files = new ArrayList<>();
        for (Trace t : filtered()) {
            Path f = t.filterFile(gtkw);
            if (!files.contains(f)) {
                files.add(f);
            }
        }
        return files.indexOf(trace.filterFile(gtkw)) + 1;
    }

    /** Wide enough for the longest name, and with a marker for the start of the value GTKWave shows after it. */
    private int signalsWidth() {
        int longest = 0;
        for (List<Trace> traces : groups.values()) {
            for (Trace t : traces) {
                longest = Math.max(longest, t.alias().length());
            }
        }
        int chars = longest + (marker >= 0 ? VALUE_CHARS : 0);
        return Math.max(MIN_SIGNALS_WIDTH, Math.min(MAX_SIGNALS_WIDTH, NAME_CHAR_PIXELS * chars + NAME_MARGIN_PIXELS));
    }

    /** The names' width, moved by the fewest pixels that make the window's end exact, and the zoom for it. */
    private Geometry geometry() {
        int wanted = signalsWidth();
        if (windowEnd < 0) {
            return new Geometry(wanted, 0);
        }
        long span = gtkwaveTime(windowEnd) - gtkwaveTime(windowStart);
        for (int d = 0; d <= MAX_WIDTH_ADJUSTMENT; d++) {
            for (int width : new int[] {wanted + d, wanted - d}) {
                Float zoom = width >= MIN_SIGNALS_WIDTH && width <= MAX_SIGNALS_WIDTH ? exactZoom(span, wavePixels(width)) : null;
                if (zoom != null) {
                    return new Geometry(width, zoom);
                }
            }
        }
        // no exact end within reach (very long windows): the nearest zoom at the names' width
        return new Geometry(wanted, (float) -log2((double) span * PIXELS_PER_FRAME / wavePixels(wanted)));
    }

    private static int wavePixels(int signalsWidth) {
        return WINDOW_WIDTH - SST_WIDTH - signalsWidth - PANE_MARGIN;
    }

    /**
     * A float zoom whose whole time units per frame end a {@code wavePixels} pane exactly {@code span}
     * units after its start, or null: the smallest such unit count, then the floats around the one
     * aimed at its middle (GTKWave truncates {@code 2^-z}).
     */
    private static Float exactZoom(long span, int wavePixels) {
        long perFrame = Math.floorDiv(Math.multiplyExact(span, PIXELS_PER_FRAME) + wavePixels - 1, wavePixels);
        if (perFrame < 1 || Math.multiplyExact(perFrame, wavePixels) / PIXELS_PER_FRAME != span) {
            return null;
        }
        float aim = (float) -log2(perFrame + 0.5);
        for (int step = 0; step <= 8; step++) {
            for (float z : new float[] {aim - step * Math.ulp(aim), aim + step * Math.ulp(aim)}) {
                if ((long) Math.pow(2, -(double) z) == perFrame) {
                    return z;
                }
            }
        }
        return null;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    /** GTKWave counts time in the timescale's unit, so a {@code 10ns} tick is 10 of its units. */
    private long gtkwaveTime(long ticks) {
        return Math.multiplyExact(ticks, (long) timescale.magnitude());
    }
}
