package org.flitkit.waves;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A GTKWave save file ({@code .gtkw}) that opens a dump with a chosen list of traces already shown,
 * so {@code gtkwave run.gtkw} lands on the interesting signals instead of an empty wave pane.
 * Vectors are shown in hex, scalars in binary.
 */
public final class GtkwSaveFile {
    /** GTKWave trace flags: right-justified hex (0x22) for vectors, right-justified binary (0x28) for scalars. */
    private static final String VECTOR_FLAGS = "@22";
    private static final String SCALAR_FLAGS = "@28";

    private final Path dumpFile;
    private final List<Trace> traces = new ArrayList<>();

    private record Trace(String name, boolean vector) {
    }

    /** Starts a save file for {@code dumpFile}; the path is written absolute so the file works from any directory. */
    public GtkwSaveFile(Path dumpFile) {
        this.dumpFile = dumpFile.toAbsolutePath().normalize();
    }

    /**
     * Writes {@code gtkw} showing {@code fullNames} (dotted, without ranges) of {@code vcd}. Widths
     * and ranges come from the dump's declarations, so only its header is read.
     *
     * @throws java.util.NoSuchElementException if a name is not declared in the dump
     */
    public static void write(Path gtkw, Path vcd, List<String> fullNames) {
        VcdReader header = VcdReader.readHeader(vcd);
        GtkwSaveFile save = new GtkwSaveFile(vcd);
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
        return add(width == 1 ? fullName : fullName + "[" + (width - 1) + ":0]", width > 1);
    }

    /** Adds a trace exactly as declared in a parsed dump, keeping its original bit range. */
    public GtkwSaveFile trace(VcdReader.Signal signal) {
        return add(signal.name() + signal.range(), signal.width() > 1);
    }

    /** The save file text. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("[*]\n[*] written by FlitKit jvcd\n[*]\n");
        sb.append("[dumpfile] \"").append(dumpFile).append("\"\n");
        sb.append("[timestart] 0\n");
        String flags = null;
        for (Trace trace : traces) {
            String wanted = trace.vector() ? VECTOR_FLAGS : SCALAR_FLAGS;
            if (!wanted.equals(flags)) {
                sb.append(wanted).append('\n');
                flags = wanted;
            }
            sb.append(trace.name()).append('\n');
        }
        return sb.toString();
    }

    /** Writes {@link #render()} to {@code gtkw}, replacing any existing file. */
    public void write(Path gtkw) {
        try {
            Files.writeString(gtkw, render(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + gtkw, e);
        }
    }

    private GtkwSaveFile add(String name, boolean vector) {
        traces.add(new Trace(name, vector));
        return this;
    }
}
