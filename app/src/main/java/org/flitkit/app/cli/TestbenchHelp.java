package org.flitkit.app.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flitkit.app.Catalog;

/**
 * The part of {@code hdl run NAME --help} that belongs to testbench NAME: its own options with their
 * defaults and what each count of its PASS line means (README, "The ./hdl command").
 */
final class TestbenchHelp {
    /** Descriptions wrap at this many characters, so the help reads in an 80-column terminal. */
    static final int WIDTH = 80;

    private TestbenchHelp() {
    }

    /** The section for testbench {@code name}, or how to get it when no (known) name was given. */
    static String of(Catalog catalog, String name) {
        Catalog.TestbenchEntry e = name == null ? null : catalog.testbench(name).orElse(null);
        if (e == null) {
            return "\nA testbench's own options and what the counts of its PASS line mean: hdl run NAME --help\n";
        }
        StringBuilder b = new StringBuilder("\n");
        wrap(e.name() + ": " + e.description(), WIDTH).forEach(l -> b.append(l).append('\n'));
        if (e.options().isEmpty()) {
            b.append("\nIt has no options of its own.\n");
        } else {
            b.append("\nIts options (--NAME VALUE or --NAME=VALUE):\n");
            table(b, e.options(), "--");
        }
        if (!e.counts().isEmpty()) {
            b.append("\nIts PASS line, after cycles=N, counts:\n");
            table(b, e.counts(), "");
        }
        return b.toString();
    }

    /** One entry a line: the name in a column as wide as the longest, the meaning wrapped beside it. */
    private static void table(StringBuilder b, Map<String, String> entries, String prefix) {
        int w = entries.keySet().stream().mapToInt(String::length).max().orElse(0) + prefix.length();
        String indent = " ".repeat(2 + w + 2);
        entries.forEach((k, v) -> {
            List<String> lines = wrap(v, Math.max(30, WIDTH - indent.length()));
            b.append("  ").append(String.format("%-" + w + "s", prefix + k)).append("  ").append(lines.get(0)).append('\n');
            lines.subList(1, lines.size()).forEach(l -> b.append(indent).append(l).append('\n'));
        });
    }

    private static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " " : "").append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
