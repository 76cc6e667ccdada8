package org.flitkit.tools.difftest;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A design as a list of DSL statements over named values: the form the random generator produces,
 * the shrinker edits, {@link ProgramDesign} builds into hardware, and {@link #toJava} prints as
 * DSL source. Expressions are method calls, so building and printing are one mapping.
 */
public final class Program {
    /** An expression: a variable, a literal number, or a call. */
    public sealed interface Expr permits Var, Num, Call, Big, Str, Lst, Child {
    }

    public record Var(String name) implements Expr {
    }

    /** An int argument (widths, shift amounts, indices) or a long literal value. */
    public record Num(long value, boolean isLong) implements Expr {
    }

    public record Big(BigInteger value) implements Expr {
    }

    public record Str(String value) implements Expr {
    }

    /** {@code java.util.List.of(items)} */
    public record Lst(List<Expr> items) implements Expr {
    }

    /** {@code instance(new <name>())}: a child module built from its own program. */
    public record Child(String name, Program program) implements Expr {
    }

    /** {@code target.method(args)}, or the static {@code Hdl.method(args)} when target is null. */
    public record Call(Expr target, String method, List<Expr> args) implements Expr {
    }

    public sealed interface Stmt permits Let, Do, When, Output {
    }

    /** {@code var name = expr;} */
    public record Let(String name, Expr expr) implements Stmt {
    }

    /** An expression evaluated for its effect ({@code x.assign(y)}, {@code mem.write(a, d)}). */
    public record Do(Expr expr) implements Stmt {
    }

    /** {@code when(c0, ...).elsewhen(c1, ...).otherwise(...)}; {@code otherwise} may be null. */
    public record When(List<Expr> conds, List<List<Stmt>> bodies, List<Stmt> otherwise) implements Stmt {
    }

    /** Declares output port {@code name} driven by {@code value}. */
    public record Output(String name, Expr value) implements Stmt {
    }

    public final List<Stmt> stmts;

    public Program(List<Stmt> stmts) {
        this.stmts = List.copyOf(stmts);
    }

    public static Var v(String n) {
        return new Var(n);
    }

    public static Num i(long x) {
        return new Num(x, false);
    }

    public static Num l(long x) {
        return new Num(x, true);
    }

    public static Call call(Expr target, String method, Expr... args) {
        return new Call(target, method, List.of(args));
    }

    public static Call hdl(String method, Expr... args) {
        return new Call(null, method, List.of(args));
    }

    /** Number of statements, counting nested ones (the size the shrinker minimises). */
    public int size() {
        return size(stmts);
    }

    private static int size(List<Stmt> l) {
        int n = 0;
        for (Stmt s : l) {
            n++;
            if (s instanceof When w) {
                for (List<Stmt> b : w.bodies()) {
                    n += size(b);
                }
                if (w.otherwise() != null) {
                    n += size(w.otherwise());
                }
            }
        }
        return n;
    }

    /** The program as a compilable DSL module class. */
    public String toJava(String className, Map<String, String> outputTypes) {
        StringBuilder sb = new StringBuilder();
        // Module is named explicitly: a wildcard alone is ambiguous with java.lang.Module
        sb.append("import static org.flitkit.hdl.Hdl.*;\n\nimport org.flitkit.hdl.*;\nimport org.flitkit.hdl.Module;\n\n");
        sb.append("public final class ").append(className).append(" extends Module {\n");
        sb.append("    public ").append(className).append("() {\n");
        print(stmts, sb, "        ", outputTypes);
        sb.append("    }\n}\n");
        for (Child c : children(stmts, new ArrayList<>())) {
            sb.append("\n// child module ").append(c.name()).append(" (its ports are reached with port(\"name\"))\n");
            sb.append(c.program().toJava(c.name(), Map.of()).replace("import static org.flitkit.hdl.Hdl.*;\n\nimport org.flitkit.hdl.*;\nimport org.flitkit.hdl.Module;\n\n", ""));
        }
        return sb.toString();
    }

    private static void print(List<Stmt> l, StringBuilder sb, String ind, Map<String, String> types) {
        for (Stmt s : l) {
            if (s instanceof Let let) {
                sb.append(ind).append("var ").append(let.name()).append(" = ").append(str(let.expr())).append(";\n");
            } else if (s instanceof Do d) {
                sb.append(ind).append(str(d.expr())).append(";\n");
            } else if (s instanceof Output o) {
                sb.append(ind).append("output(").append(types.getOrDefault(o.name(), "?")).append(").named(\"").append(o.name())
                        .append("\").assign(").append(str(o.value())).append(");\n");
            } else if (s instanceof When w) {
                for (int k = 0; k < w.conds().size(); k++) {
                    sb.append(ind).append(k == 0 ? "when(" : "}).elsewhen(").append(str(w.conds().get(k))).append(", () -> {\n");
                    print(w.bodies().get(k), sb, ind + "    ", types);
                }
                if (w.otherwise() != null) {
                    sb.append(ind).append("}).otherwise(() -> {\n");
                    print(w.otherwise(), sb, ind + "    ", types);
                }
                sb.append(ind).append("});\n");
            }
        }
    }

    private static List<Child> children(List<Stmt> l, List<Child> out) {
        for (Stmt s : l) {
            if (s instanceof Let let && let.expr() instanceof Child c) {
                out.add(c);
            } else if (s instanceof When w) {
                for (List<Stmt> b : w.bodies()) {
                    children(b, out);
                }
                if (w.otherwise() != null) {
                    children(w.otherwise(), out);
                }
            }
        }
        return out;
    }

    static String str(Expr e) {
        if (e instanceof Var v) {
            return v.name();
        }
        if (e instanceof Num n) {
            return n.isLong() ? n.value() + "L" : Long.toString(n.value());
        }
        if (e instanceof Big b) {
            return "new java.math.BigInteger(\"" + b.value().toString(16) + "\", 16)";
        }
        if (e instanceof Str st) {
            return "\"" + st.value() + "\"";
        }
        if (e instanceof Lst ls) {
            List<String> items = new ArrayList<>();
            for (Expr x : ls.items()) {
                items.add(str(x));
            }
            return "java.util.List.of(" + String.join(", ", items) + ")";
        }
        if (e instanceof Child ch) {
            return "instance(new " + ch.name() + "())";
        }
        Call c = (Call) e;
        List<String> args = new ArrayList<>();
        for (Expr a : c.args()) {
            args.add(str(a));
        }
        return (c.target() == null ? "" : str(c.target()) + ".") + c.method() + "(" + String.join(", ", args) + ")";
    }
}
