package org.flitkit.figures;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * Measures figures and writes the figure directory: the table ({@code README.md}), the log
 * ({@code measurements.csv}), each measured curve's plot ({@code ID.png}) and data ({@code ID.csv}), and
 * the sweep tables. Rows not measured in this run keep their values and dates (merge, not overwrite).
 */
public final class FigureRun {
    public static final String README = "README.md";
    public static final String PARAMETERS = "parameters.md";

    /** What the sources gave: a measurement per figure id, and the sweep tables. */
    public record Measured(Map<String, Measurement> byId, List<Table> tables) {
    }

    private FigureRun() {
    }

    /** Runs the sources for {@code selections}, then merges the results into {@code dir}; returns the new log rows, in table order. */
    public static List<LastMeasured> run(FigureRegistry registry, List<FigureRegistry.Selection> selections, Path dir, Executor executor,
            LocalDate date, String command) {
        Measured fresh = measure(registry, selections, executor);
        Map<String, LastMeasured> log = MeasurementLog.read(dir);
        Map<String, LastMeasured> merged = new LinkedHashMap<>();
        List<LastMeasured> now = new ArrayList<>();
        for (Figure f : registry.figures()) {
            Measurement m = fresh.byId().get(f.id());
            if (m != null) {
                LastMeasured l = new LastMeasured(f.id(), m.value(), date, command);
                merged.put(f.id(), l);
                now.add(l);
            } else if (log.containsKey(f.id())) {
                merged.put(f.id(), log.get(f.id()));
            }
        }
        try {
            Files.createDirectories(dir);
            for (Figure f : registry.figures()) {
                Measurement m = fresh.byId().get(f.id());
                if (m != null && f.curve().isPresent()) {
                    write(dir.resolve(f.id() + ".csv"), FigurePlot.csv(f, m.series()));
                    Files.write(dir.resolve(f.id() + ".png"), FigurePlot.png(f, m.series()));
                }
            }
            for (Table t : fresh.tables()) {
                write(dir.resolve(t.name() + ".csv"), t.csv());
            }
            write(dir.resolve(MeasurementLog.FILE), MeasurementLog.csv(merged.values()));
            write(dir.resolve(README), FigureTable.markdown(registry.figures(), merged));
            write(dir.resolve(PARAMETERS), Parameter.markdown(registry.sources()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the figures into " + dir, e);
        }
        return now;
    }

    /** Runs each selected source (one after another; each spreads its own runs over {@code executor}) and checks what it returns. */
    public static Measured measure(FigureRegistry registry, List<FigureRegistry.Selection> selections, Executor executor) {
        Map<String, Measurement> byId = new LinkedHashMap<>();
        List<Table> tables = new ArrayList<>();
        Set<String> tableNames = new HashSet<>();
        for (FigureRegistry.Selection sel : selections) {
            FigureSource.Results r = sel.source().measure(sel.ids(), executor);
            for (Measurement m : r.measurements()) {
                if (!sel.ids().contains(m.id())) {
                    throw new IllegalStateException("source " + sel.source().name() + " measured " + m.id() + ", which was not asked for");
                }
                if (byId.put(m.id(), m) != null) {
                    throw new IllegalStateException("source " + sel.source().name() + " measured " + m.id() + " twice");
                }
                Figure f = registry.figure(m.id()).orElseThrow();
                if (f.curve().isPresent() == m.series().isEmpty()) {
                    throw new IllegalStateException("figure " + m.id() + (f.curve().isPresent() ? " is a curve but came without series"
                            : " is no curve but came with series"));
                }
            }
            for (String id : sel.ids()) {
                if (!byId.containsKey(id)) {
                    throw new IllegalStateException("source " + sel.source().name() + " did not measure " + id);
                }
            }
            for (Table t : r.tables()) {
                if (!tableNames.add(t.name()) || registry.figure(t.name()).isPresent()) {
                    throw new IllegalStateException("table name " + t.name() + " is used twice (tables and curve data share the directory)");
                }
                tables.add(t);
            }
        }
        return new Measured(byId, tables);
    }

    /**
     * Why the figure directory {@code dir} is stale, cheaply: every figure has a logged value and nothing
     * else does; the table is what the definitions and the log give; the fast figures, measured afresh,
     * give exactly the logged values, plot data and sweep tables; every curve has its plot. Slow figures
     * are checked on their definitions only (the table says when they were measured). Empty when up to date.
     */
    public static List<String> staleness(FigureRegistry registry, Path dir, Executor executor) {
        List<String> problems = new ArrayList<>();
        Map<String, LastMeasured> log = MeasurementLog.read(dir);
        for (Figure f : registry.figures()) {
            if (!log.containsKey(f.id())) {
                problems.add(f.id() + ": never measured (no row in " + MeasurementLog.FILE + ")");
            }
            if (f.curve().isPresent()) {
                for (String ext : List.of(".csv", ".png")) {
                    if (!Files.isRegularFile(dir.resolve(f.id() + ext))) {
                        problems.add(f.id() + ": " + f.id() + ext + " is missing");
                    }
                }
            }
        }
        for (String id : log.keySet()) {
            if (registry.figure(id).isEmpty()) {
                problems.add(id + ": in " + MeasurementLog.FILE + " but no such figure");
            }
        }
        String table = FigureTable.markdown(registry.figures(), log);
        String committed = read(dir.resolve(README));
        if (!table.equals(committed)) {
            problems.add(README + " differs from the definitions and " + MeasurementLog.FILE + ": " + firstDifference(committed, table));
        }
        String parameters = Parameter.markdown(registry.sources());
        if (!parameters.equals(read(dir.resolve(PARAMETERS)))) {
            problems.add(PARAMETERS + " differs from the sources' parameters: " + firstDifference(read(dir.resolve(PARAMETERS)), parameters));
        }
        Measured fresh = measure(registry, registry.fast(), executor);
        for (Figure f : registry.figures()) {
            Measurement m = fresh.byId().get(f.id());
            LastMeasured l = log.get(f.id());
            if (m == null || l == null) {
                continue;
            }
            if (!Numbers.plain(m.value()).equals(Numbers.plain(l.value()))) {
                problems.add(f.id() + ": the model gives " + Numbers.plain(m.value()) + " " + f.unit() + " now, " + Numbers.plain(l.value())
                        + " in " + MeasurementLog.FILE);
            }
            if (f.curve().isPresent() && !FigurePlot.csv(f, m.series()).equals(read(dir.resolve(f.id() + ".csv")))) {
                problems.add(f.id() + ": " + f.id() + ".csv differs from the model's series now: "
                        + firstDifference(read(dir.resolve(f.id() + ".csv")), FigurePlot.csv(f, m.series())));
            }
        }
        for (Table t : fresh.tables()) {
            if (!t.csv().equals(read(dir.resolve(t.name() + ".csv")))) {
                problems.add(t.name() + ".csv differs from the sweep's rows now");
            }
        }
        return problems;
    }

    /** The first line where {@code was} and {@code now} differ, both shown. */
    static String firstDifference(String was, String now) {
        List<String> a = was.lines().toList();
        List<String> b = now.lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String x = i < a.size() ? a.get(i) : "(end of file)";
            String y = i < b.size() ? b.get(i) : "(end of file)";
            if (!x.equals(y)) {
                return "line " + (i + 1) + " is '" + x + "', should be '" + y + "'";
            }
        }
        return "line endings differ";
    }

    private static String read(Path f) {
        try {
            return Files.isRegularFile(f) ? Files.readString(f, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
    }

    private static void write(Path f, String text) throws IOException {
        Files.writeString(f, text, StandardCharsets.UTF_8);
    }
}
