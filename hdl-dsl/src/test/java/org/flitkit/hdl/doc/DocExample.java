package org.flitkit.hdl.doc;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code ```java} block of docs/dsl.md with the line that follows it and says how it is run
 * ("About the examples" in docs/dsl.md): {@code Sim:} (a module body, simulated by a script),
 * {@code Fails:} (a module body whose elaboration fails with that message) or {@code Result:} (a
 * testbench body whose local variables must have the values given).
 *
 * @param line the doc line of the opening fence
 * @param section the heading the block sits under
 * @param code the block's text, exactly as in the doc
 * @param kind how it is run
 * @param expectation the backquoted text of its run line (a script, or the error message)
 */
record DocExample(int line, String section, String code, Kind kind, String expectation) {
    /** How an example is wrapped and what its run line states. */
    enum Kind {
        /** constructor body of a top module, simulated by the script */
        SIM("Sim:"),
        /** constructor body of a top module whose elaboration throws exactly the stated message */
        FAILS("Fails:"),
        /** body of a static method; the script compares its local variables with values */
        RESULT("Result:");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private static final Pattern RUN_LINE = Pattern.compile("^(Sim:|Fails:|Result:) `(.*)`$");

    /** Every {@code ```java} block of {@code markdown}; one without its run line is an error naming its line. */
    static List<DocExample> parse(String markdown) {
        String[] lines = markdown.split("\n", -1);
        List<DocExample> out = new ArrayList<>();
        String section = "(top)";
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("#")) {
                section = lines[i].replaceFirst("^#+\\s*", "");
            }
            if (!lines[i].equals("```java")) {
                continue;
            }
            int start = i;
            StringBuilder code = new StringBuilder();
            for (i++; i < lines.length && !lines[i].equals("```"); i++) {
                code.append(lines[i]).append('\n');
            }
            if (i == lines.length) {
                throw new AssertionError("docs/dsl.md:" + (start + 1) + ": the java block is never closed");
            }
            int run = i + 1;
            while (run < lines.length && lines[run].isBlank()) {
                run++;
            }
            Matcher m = run < lines.length ? RUN_LINE.matcher(lines[run]) : null;
            if (m == null || !m.matches()) {
                throw new AssertionError("docs/dsl.md:" + (start + 1) + ": the java block is not followed by a line"
                        + " `Sim: `...``, `Fails: `...`` or `Result: `...``");
            }
            Kind kind = switch (m.group(1)) {
                case "Sim:" -> Kind.SIM;
                case "Fails:" -> Kind.FAILS;
                default -> Kind.RESULT;
            };
            out.add(new DocExample(start + 1, section, code.toString(), kind, m.group(2)));
            i = run;
        }
        return out;
    }

    /** The Java package the example is compiled in: one per example, so each has its own class {@code Example}. */
    String packageName() {
        return "dsldoc.line" + line;
    }

    @Override
    public String toString() {
        return "docs/dsl.md:" + line + " (" + section + ")";
    }
}
