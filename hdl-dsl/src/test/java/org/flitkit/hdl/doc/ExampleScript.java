package org.flitkit.hdl.doc;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.sim.SimAssertionError;
import org.flitkit.hdl.sim.Simulator;

/**
 * The script of a {@code Sim:} or {@code Result:} line of docs/dsl.md ("About the examples"): statements
 * separated by {@code ;}: {@code x=5} pokes, {@code x==5} expects, {@code step [N]}, {@code reset [N]},
 * {@code step fails "message"} (a check must fail at the next edge), {@code printed=="text"} (everything
 * printed so far). A name is any Java expression of the example's top level, such as {@code q.deq.bits}.
 */
final class ExampleScript {
    private static final Pattern POKE = Pattern.compile("^([A-Za-z_][\\w.()]*)\\s*=\\s*(\\S+)$");
    private static final Pattern EXPECT = Pattern.compile("^([A-Za-z_][\\w.()]*)\\s*==\\s*(.+)$");
    private static final Pattern STEP = Pattern.compile("^(step|reset)(?:\\s+(\\d+))?$");
    private static final Pattern STEP_FAILS = Pattern.compile("^step fails (\".*\")$");
    private static final String PRINTED = "printed";

    private final List<String> statements;

    ExampleScript(String script) {
        statements = split(script);
        if (statements.isEmpty()) {
            throw new IllegalArgumentException("empty script");
        }
    }

    /** The names the script pokes or expects (not {@code printed}): the example must have them. */
    Set<String> names() {
        Set<String> out = new LinkedHashSet<>();
        for (String s : statements) {
            Matcher e = EXPECT.matcher(s);
            Matcher p = POKE.matcher(s);
            if (e.matches()) {
                out.add(e.group(1));
            } else if (p.matches()) {
                out.add(p.group(1));
            }
        }
        out.remove(PRINTED);
        return out;
    }

    /** Runs against a simulation of the example module after one cycle of reset; {@code probes} maps names to signals. */
    void simulate(Simulator sim, Map<String, Object> probes, String where) {
        StringBuilder printed = new StringBuilder();
        sim.setPrintSink(printed::append);
        sim.reset(1);
        for (String s : statements) {
            String at = where + ", statement `" + s + "`: ";
            Matcher m;
            if ((m = STEP_FAILS.matcher(s)).matches()) {
                String expected = unquote(m.group(1), at);
                try {
                    sim.step();
                } catch (SimAssertionError e) {
                    if (!e.detail().equals(expected)) {
                        throw new AssertionError(at + "the check failed with \"" + e.detail() + "\", the doc says \"" + expected + "\"");
                    }
                    continue;
                }
                throw new AssertionError(at + "no check failed at cycle " + (sim.cycle() - 1));
            } else if ((m = STEP.matcher(s)).matches()) {
                int n = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
                if (m.group(1).equals("step")) {
                    sim.step(n);
                } else {
                    sim.reset(n);
                }
            } else if ((m = EXPECT.matcher(s)).matches() && m.group(1).equals(PRINTED)) {
                String expected = unquote(m.group(2), at);
                if (!printed.toString().equals(expected)) {
                    throw new AssertionError(at + "printed \"" + escape(printed.toString()) + "\", the doc says \"" + escape(expected) + "\"");
                }
            } else if (m.matches()) {
                BigInteger actual = sim.peekBig(signal(probes, m.group(1), at));
                BigInteger expected = number(m.group(2), at);
                if (!actual.equals(expected)) {
                    throw new AssertionError(at + m.group(1) + " is " + actual + " (0x" + actual.toString(16) + ") at cycle "
                            + sim.cycle() + ", the doc says " + m.group(2));
                }
            } else if ((m = POKE.matcher(s)).matches()) {
                sim.poke(signal(probes, m.group(1), at), number(m.group(2), at));
            } else {
                throw new AssertionError(at + "not a statement (x=5, x==5, step [N], reset [N], step fails \"...\", printed==\"...\")");
            }
        }
    }

    /** Compares the local variables of a testbench example with the values the script states ({@code x==5} only). */
    void compare(Map<String, Object> probes, String where) {
        for (String s : statements) {
            String at = where + ", statement `" + s + "`: ";
            Matcher m = EXPECT.matcher(s);
            if (!m.matches()) {
                throw new AssertionError(at + "a Result: line only states values (x==5, x==\"text\")");
            }
            Object actual = probes.get(m.group(1));
            String text = m.group(2).trim();
            if (text.startsWith("\"")) {
                String expected = unquote(text, at);
                if (!String.valueOf(actual).equals(expected)) {
                    throw new AssertionError(at + m.group(1) + " is \"" + escape(String.valueOf(actual)) + "\", the doc says \""
                            + escape(expected) + "\"");
                }
            } else {
                BigInteger a = actual instanceof Boolean b ? (b ? BigInteger.ONE : BigInteger.ZERO)
                        : actual instanceof BigInteger bi ? bi
                        : actual instanceof Number n ? BigInteger.valueOf(n.longValue())
                        : null;
                if (a == null || !a.equals(number(text, at))) {
                    throw new AssertionError(at + m.group(1) + " is " + actual + ", the doc says " + text);
                }
            }
        }
    }

    private static Bits signal(Map<String, Object> probes, String name, String at) {
        Object o = probes.get(name);
        if (o instanceof Bits b) {
            return b;
        }
        throw new AssertionError(at + name + " is " + (o == null ? "missing" : "a " + o.getClass().getSimpleName()) + ", not a signal");
    }

    static BigInteger number(String text, String at) {
        String t = text.trim().replace("_", "");
        try {
            if (t.equals("true")) {
                return BigInteger.ONE;
            } else if (t.equals("false")) {
                return BigInteger.ZERO;
            } else if (t.startsWith("0x")) {
                return new BigInteger(t.substring(2), 16);
            } else if (t.startsWith("0b")) {
                return new BigInteger(t.substring(2), 2);
            }
            return new BigInteger(t);
        } catch (NumberFormatException e) {
            throw new AssertionError(at + "'" + text + "' is not a number (decimal, 0x.., 0b.., true, false)");
        }
    }

    /** A double-quoted string with the escapes \n, \" and \\. */
    private static String unquote(String text, String at) {
        String t = text.trim();
        if (t.length() < 2 || !t.startsWith("\"") || !t.endsWith("\"")) {
            throw new AssertionError(at + "expected a \"quoted\" string, got " + text);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i < t.length() - 1; i++) {
            char c = t.charAt(i);
            if (c == '\\' && i + 1 < t.length() - 1) {
                char n = t.charAt(++i);
                sb.append(n == 'n' ? '\n' : n);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\"", "\\\"");
    }

    /** Splits at the {@code ;} outside double quotes. */
    private static List<String> split(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < script.length(); i++) {
            char c = script.charAt(i);
            if (c == '"' && (i == 0 || script.charAt(i - 1) != '\\')) {
                quoted = !quoted;
            }
            if (c == ';' && !quoted) {
                add(out, cur);
            } else {
                cur.append(c);
            }
        }
        add(out, cur);
        return out;
    }

    private static void add(List<String> out, StringBuilder cur) {
        String s = cur.toString().trim();
        if (!s.isEmpty()) {
            out.add(s);
        }
        cur.setLength(0);
    }
}
