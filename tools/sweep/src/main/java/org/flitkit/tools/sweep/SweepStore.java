package org.flitkit.tools.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A sweep on disk, shared by the machines that run it: {@code sweep.json} (name, version, point count),
 * {@code points/NNNNN.json}, {@code rows/NNNNN.json} (one per finished point, written atomically), {@code logs/NNNNN.log}
 * and {@code errors/NNNNN.txt}. A point with a row is finished and never run again (docs/sweeps.md, "Store").
 */
public final class SweepStore {
    /** The store's own description. */
    public record Manifest(String sweep, String version, int points) {
    }

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    static final String MANIFEST = "sweep.json";

    private final Path dir;
    private final Manifest manifest;

    private SweepStore(Path dir, Manifest manifest) {
        this.dir = dir.toAbsolutePath().normalize();
        this.manifest = manifest;
    }

    /**
     * The store of {@code points} in {@code dir}: created if {@code dir} has none, else the existing one when it holds
     * the same sweep, version and points (rows already there are kept), else IllegalArgumentException saying what differs.
     */
    public static SweepStore prepare(Path dir, String sweep, String version, List<Point> points) {
        Manifest want = new Manifest(sweep, version, points.size());
        for (int i = 0; i < points.size(); i++) {
            if (points.get(i).index() != i || !points.get(i).sweep().equals(sweep)) {
                throw new IllegalArgumentException("point " + i + " of sweep " + sweep + " is " + points.get(i) + " (points are numbered 0..N-1)");
            }
        }
        if (Files.exists(dir.resolve(MANIFEST))) {
            SweepStore s = open(dir);
            if (!s.manifest.equals(want)) {
                throw new IllegalArgumentException("store " + dir + " holds " + s.manifest + ", not " + want
                        + "; remove it or give another store directory");
            }
            for (Point p : points) {
                Point there = s.point(p.index());
                if (!there.equals(p)) {
                    throw new IllegalArgumentException("store " + dir + ": point " + p.index() + " is " + there + " there, " + p
                            + " now; remove it or give another store directory");
                }
            }
            return s;
        }
        SweepStore s = new SweepStore(dir, want);
        try {
            for (String sub : List.of("points", "rows", "logs", "errors")) {
                Files.createDirectories(s.dir.resolve(sub));
            }
            for (Point p : points) {
                s.writeAtomically(s.pointFile(p.index()), JSON.writeValueAsString(p));
            }
            s.writeAtomically(s.dir.resolve(MANIFEST), JSON.writeValueAsString(want));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the sweep store " + dir, e);
        }
        return s;
    }

    /** The existing store in {@code dir}; IllegalArgumentException if there is none. */
    public static SweepStore open(Path dir) {
        Path m = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(m)) {
            throw new IllegalArgumentException("no sweep store in " + dir + " (no " + MANIFEST + ")");
        }
        return new SweepStore(dir, read(m, Manifest.class));
    }

    public Path dir() {
        return dir;
    }

    public Manifest manifest() {
        return manifest;
    }

    /** Point {@code index}; IllegalArgumentException if the store has no such point. */
    public Point point(int index) {
        if (index < 0 || index >= manifest.points()) {
            throw new IllegalArgumentException("store " + dir + " has points 0.." + (manifest.points() - 1) + ", not " + index);
        }
        return read(pointFile(index), Point.class);
    }

    public List<Point> points() {
        List<Point> out = new ArrayList<>();
        for (int i = 0; i < manifest.points(); i++) {
            out.add(point(i));
        }
        return out;
    }

    /** The row of point {@code index}, if it finished. */
    public Optional<Row> row(int index) {
        Path f = rowFile(index);
        return Files.isRegularFile(f) ? Optional.of(read(f, Row.class)) : Optional.empty();
    }

    /** The points without a row, in order. */
    public List<Point> pending() {
        List<Point> out = new ArrayList<>();
        for (int i = 0; i < manifest.points(); i++) {
            if (!Files.isRegularFile(rowFile(i))) {
                out.add(point(i));
            }
        }
        return out;
    }

    /** Every row, in point order; IllegalStateException naming the first unfinished point if one has none. */
    public List<Row> rows() {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < manifest.points(); i++) {
            int n = i;
            out.add(row(i).orElseThrow(() -> new IllegalStateException("point " + n + " of " + dir + " has no row yet")));
        }
        return out;
    }

    /** Records what point {@code p} gave; readers see the whole row or none. */
    public Row writeRow(Point p, PointRunner.Result r, String version) {
        Row row = new Row(p.index(), p.kind(), p.seed(), version, r.columns(), r.values(), r.notes());
        try {
            writeAtomically(rowFile(p.index()), JSON.writeValueAsString(row));
            Files.deleteIfExists(errorFile(p.index()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the row of point " + p.index() + " into " + dir, e);
        }
        return row;
    }

    /** Records why point {@code index} failed (its log has the rest). */
    public void writeError(int index, String text) {
        try {
            writeAtomically(errorFile(index), text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the error of point " + index + " into " + dir, e);
        }
    }

    /** Why point {@code index} failed, if a run of it got far enough to say. */
    public Optional<String> error(int index) {
        Path f = errorFile(index);
        try {
            return Files.isRegularFile(f) ? Optional.of(Files.readString(f, StandardCharsets.UTF_8)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
    }

    /** The log file of point {@code index}: every run of it appends there. */
    public Path log(int index) {
        return dir.resolve("logs").resolve(String.format(java.util.Locale.ROOT, "%05d.log", index));
    }

    /**
     * The rows as CSV: {@code point,seed,} then the columns, one line per point, values exact ({@link Row#text}).
     * The same rows give the same text byte for byte, whatever ran them.
     */
    public String csv() {
        List<Row> rows = rows();
        List<String> columns = rows.isEmpty() ? List.of() : rows.get(0).columns();
        StringBuilder sb = new StringBuilder("point,seed");
        columns.forEach(c -> sb.append(',').append(c));
        sb.append('\n');
        for (Row r : rows) {
            if (!r.columns().equals(columns)) {
                throw new IllegalStateException("row " + r.index() + " of " + dir + " has columns " + r.columns() + ", row 0 " + columns);
            }
            sb.append(r.index()).append(',').append(r.seed());
            for (double v : r.values()) {
                sb.append(',').append(Row.text(v));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private Path pointFile(int index) {
        return dir.resolve("points").resolve(String.format(java.util.Locale.ROOT, "%05d.json", index));
    }

    private Path rowFile(int index) {
        return dir.resolve("rows").resolve(String.format(java.util.Locale.ROOT, "%05d.json", index));
    }

    private Path errorFile(int index) {
        return dir.resolve("errors").resolve(String.format(java.util.Locale.ROOT, "%05d.txt", index));
    }

    /** Write to a temporary file beside {@code f}, then rename: another machine never reads half a file. */
    private void writeAtomically(Path f, String text) throws IOException {
        // a name of its own per writer (two tries of one point may overlap), and the umask's permissions, not
        // createTempFile's owner-only ones: others read the store too
        Path tmp = f.resolveSibling(f.getFileName() + "." + ProcessHandle.current().pid() + "-" + Thread.currentThread().getId() + ".tmp");
        Files.writeString(tmp, text + (text.endsWith("\n") ? "" : "\n"), StandardCharsets.UTF_8);
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T read(Path f, Class<T> type) {
        try {
            return JSON.readValue(f.toFile(), type);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + f + ": " + e.getMessage(), e);
        }
    }
}
