package org.flitkit.tools.difftest;

import static org.flitkit.tools.difftest.Program.call;
import static org.flitkit.tools.difftest.Program.hdl;
import static org.flitkit.tools.difftest.Program.i;
import static org.flitkit.tools.difftest.Program.l;
import static org.flitkit.tools.difftest.Program.v;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.flitkit.tools.difftest.Program.Expr;
import org.flitkit.tools.difftest.Program.Stmt;

/**
 * Seeded random designs exercising every construct of the DSL: narrow and wide (65..300 bits) values,
 * signed arithmetic, static and dynamic shifts, slices and concatenations, nested when blocks,
 * registers with and without reset or enable, memories with combinational and registered reads,
 * multiplexers (two-way, vector index, priority, one-hot) and child instances. Same seed, same design.
 */
public final class RandomProgram {
    /** Generation knobs. */
    /**
     * Generation knobs. {@code wideDivision}: divisions and remainders wider than 64 bits; Icarus 11
     * computes those wrongly in a continuous assignment once the divisor changes (see README), so runs
     * against Icarus leave them out.
     */
    public record Shape(int inputs, int ops, int outputs, int maxWidth, int childDepth, boolean wideDivision) {
        public static Shape standard() {
            return new Shape(5, 40, 6, 300, 1, true);
        }

        /** The same shape for a reference simulator; only Icarus needs a restriction. */
        public Shape forReference(String tool) {
            return tool.equals("verilator") ? this : new Shape(inputs, ops, outputs, maxWidth, childDepth, false);
        }
    }

    private record Val(String name, int width, boolean signed) {
    }

    private final SplittableRandom rnd;
    private final Shape shape;
    private final List<Val> vals = new ArrayList<>();
    /** names bound to literals, or to values computed from one (which elaboration may fold to a literal) */
    private final java.util.Set<String> literals = new java.util.HashSet<>();
    private final List<Stmt> out = new ArrayList<>();
    private final List<Stmt> late = new ArrayList<>();
    private final String prefix;
    private int next;

    private RandomProgram(long seed, Shape shape, String prefix) {
        this.rnd = new SplittableRandom(seed);
        this.shape = shape;
        this.prefix = prefix;
    }

    public static Program generate(long seed, Shape shape) {
        return new RandomProgram(seed, shape, "").build(true);
    }

    private Program build(boolean top) {
        for (int k = 0; k < shape.inputs(); k++) {
            int w = width();
            boolean s = rnd.nextInt(4) == 0;
            String n = fresh("in");
            out.add(new Program.Let(n, call(hdl("input", type(w, s)), "named", new Program.Str(n))));
            vals.add(new Val(n, w, s));
        }
        for (int k = 0; k < shape.ops(); k++) {
            step(top);
        }
        out.addAll(late);
        for (int k = 0; k < shape.outputs(); k++) {
            Val x = pick();
            out.add(new Program.Output("out" + k, v(x.name())));
        }
        return new Program(out);
    }

    private String fresh(String base) {
        return prefix + base + next++;
    }

    private int width() {
        int r = rnd.nextInt(10);
        if (r < 5) {
            return 1 + rnd.nextInt(16);
        }
        if (r < 8) {
            return 1 + rnd.nextInt(64);
        }
        return 65 + rnd.nextInt(Math.max(1, shape.maxWidth() - 64));
    }

    private static Expr type(int w, boolean s) {
        return hdl(s ? "SInt" : "UInt", i(w));
    }

    /** Recent values are more likely, so expressions chain deeply. */
    private Val pick() {
        int n = vals.size();
        return rnd.nextBoolean() ? vals.get(n - 1 - rnd.nextInt(Math.min(n, 6))) : vals.get(rnd.nextInt(n));
    }

    private Val pickWhere(java.util.function.Predicate<Val> p) {
        for (int t = 0; t < 20; t++) {
            Val x = pick();
            if (p.test(x)) {
                return x;
            }
        }
        return null;
    }

    /** Expression converting x to the given width and signedness (explicitly, as a user must). */
    private static Expr fit(Val x, int w, boolean s) {
        Expr e = v(x.name());
        int xw = x.width();
        if (x.signed() != s && xw <= w) {
            e = call(e, s ? "asSInt" : "asUInt");
        }
        if (xw < w) {
            return call(e, "pad", i(w));
        }
        if (xw > w) {
            e = call(e, "trunc", i(w));
            return s ? call(e, "asSInt") : e;
        }
        return e;
    }

    private Expr cond() {
        Val c = pick();
        return c.width() == 1 && !c.signed() ? call(v(c.name()), "bit", i(0)) : call(v(c.name()), rnd.nextBoolean() ? "orR" : "xorR");
    }

    private void let(Expr e, int w, boolean s) {
        String n = fresh("n");
        out.add(new Program.Let(n, e));
        vals.add(new Val(n, w, s));
    }

    private void step(boolean top) {
        int before = vals.size();
        Val a = pick();
        Val b = pick();
        stepOn(a, b, top);
        // an operation on a constant may fold to a constant (a literal's replicate, slice, pad...): whatever this step
        // made from one may be one, so a later comparison meets its width too (marking too many only narrows a few)
        if (literals.contains(a.name()) || literals.contains(b.name())) {
            for (int k = before; k < vals.size(); k++) {
                literals.add(vals.get(k).name());
            }
        }
    }

    private void stepOn(Val a, Val b, boolean top) {
        int aw = a.width();
        boolean s = a.signed();
        Expr ea = v(a.name());
        int r = rnd.nextInt(100);
        if (r < 14) {
            String[] ops = {"add", "sub", "addW", "subW", "and", "or", "xor"};
            String op = ops[rnd.nextInt(ops.length)];
            int w = Math.min(shape.maxWidth(), Math.max(aw, b.width()));
            Expr eb = fit(b, Math.min(b.width(), w), s);
            int res = Math.max(aw, Math.min(b.width(), w)) + (op.endsWith("W") ? 1 : 0);
            let(call(ea, op, eb), res, s);
        } else if (r < 18) {
            int bw = Math.min(b.width(), 300 - Math.min(aw, 200));
            Val a2 = aw > 200 ? null : a;
            if (a2 == null) {
                let(call(call(ea, "trunc", i(40)), "mul", fit(b, Math.min(bw, 40), false)), 40 + Math.min(bw, 40), false);
            } else {
                let(call(ea, "mul", fit(b, bw, s)), aw + bw, s);
            }
        } else if (r < 22) {
            boolean div = rnd.nextBoolean();
            int bw = Math.min(b.width(), shape.wideDivision() ? 128 : 64);
            if (!shape.wideDivision() && aw + 1 > 64) {
                ea = s ? call(call(ea, "trunc", i(63)), "asSInt") : call(ea, "trunc", i(63));
                aw = 63;
            }
            let(call(ea, div ? "div" : "rem", fit(b, bw, s)), div ? aw + (s ? 1 : 0) : Math.min(aw, bw), s);
        } else if (r < 26) {
            if (s) {
                boolean neg = rnd.nextBoolean();
                let(call(ea, neg ? "neg" : "abs"), neg ? aw + 1 : aw, neg);
            } else if (rnd.nextBoolean()) {
                let(call(ea, "zext"), aw + 1, true);
            } else {
                let(call(ea, "not"), aw, false);
            }
        } else if (r < 34) {
            int n = rnd.nextInt(Math.min(aw + 3, 70));
            boolean left = rnd.nextBoolean() && aw + n <= shape.maxWidth() + 8;
            let(call(ea, left ? "shl" : "shr", i(n)), left ? aw + n : Math.max(1, aw - n), s);
        } else if (r < 40) {
            int kind = rnd.nextInt(3);
            int grow = (1 << Math.min(b.width(), 3)) - 1;
            if (kind == 0 && aw + grow <= shape.maxWidth() + 8) {
                let(call(ea, "shl", amount(b, 3)), aw + grow, s);
            } else if (kind == 1) {
                let(call(ea, "shlTrunc", amount(b, 9)), aw, s);
            } else {
                let(call(ea, "shr", amount(b, 9)), aw, s);
            }
        } else if (r < 48) {
            String[] ops = {"eq", "ne", "lt", "le", "gt", "ge"};
            // a constant outside the other side's range is an elaboration error: a literal meets its own width
            boolean constant = literals.contains(a.name()) || literals.contains(b.name());
            let(call(ea, ops[rnd.nextInt(ops.length)], fit(b, constant ? aw : Math.min(b.width(), 300), s)), 1, false);
        } else if (r < 51) {
            String[] ops = {"andR", "orR", "xorR"};
            let(call(ea, ops[rnd.nextInt(3)]), 1, false);
        } else if (r < 58) {
            int lo = rnd.nextInt(aw);
            int hi = lo + rnd.nextInt(Math.min(aw - lo, 130));
            let(call(ea, "bits", i(hi), i(lo)), hi - lo + 1, false);
        } else if (r < 60) {
            let(call(ea, "bit", amount(b, 9)), 1, false);
        } else if (r < 66) {
            Val c = pick();
            if (aw + b.width() + c.width() <= shape.maxWidth() + 64) {
                let(hdl("cat", ea, v(b.name()), v(c.name())), aw + b.width() + c.width(), false);
            } else {
                let(call(ea, "cat", call(v(b.name()), "trunc", i(Math.min(b.width(), 8)))), aw + Math.min(b.width(), 8), false);
            }
        } else if (r < 68) {
            int n = 1 + rnd.nextInt(4);
            Val x = aw * n <= shape.maxWidth() ? a : null;
            if (x != null) {
                let(call(ea, "replicate", i(n)), aw * n, false);
            }
        } else if (r < 72) {
            int w = Math.min(Math.max(aw, b.width()), 300);
            let(hdl("mux", cond(), fit(a, w, s), fit(b, w, s)), w, s);
        } else if (r < 75) {
            int n = 2 + rnd.nextInt(4);
            List<Expr> es = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                es.add(fit(pick(), aw, s));
            }
            String vec = fresh("vec");
            out.add(new Program.Let(vec, new Program.Call(null, "vecOf", es)));
            let(call(v(vec), "at", amount(b, 3)), aw, s);
        } else if (r < 77) {
            int n = 2 + rnd.nextInt(3);
            List<Expr> cs = new ArrayList<>();
            List<Expr> es = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                cs.add(cond());
                es.add(fit(pick(), aw, s));
            }
            let(hdl(rnd.nextBoolean() ? "priorityMux" : "Mux1H", new Program.Lst(cs), new Program.Lst(es)), aw, s);
        } else if (r < 80) {
            if (aw <= 63 && rnd.nextBoolean()) {
                long x = rnd.nextLong() & (aw == 64 ? -1L : (1L << aw) - 1);
                if (s) {
                    let(hdl("slit", l(x << (64 - aw) >> (64 - aw)), i(aw)), aw, true);
                } else {
                    let(hdl("lit", l(x), i(aw)), aw, false);
                }
            } else {
                int w = 65 + rnd.nextInt(200);
                let(hdl("lit", new Program.Big(new BigInteger(w, new java.util.Random(rnd.nextLong()))), i(w)), w, false);
            }
            literals.add(vals.get(vals.size() - 1).name());
        } else if (r < 87) {
            register(a, s);
        } else if (r < 93) {
            whenWire();
        } else if (r < 97) {
            memory();
        } else if (top && shape.childDepth() > 0) {
            child();
        } else if (aw < shape.maxWidth()) {
            int w = Math.min(aw + 1 + rnd.nextInt(20), shape.maxWidth());
            let(call(ea, "pad", i(w)), w, s);
        }
    }

    /** A small unsigned hardware amount taken from x. */
    private Expr amount(Val x, int bits) {
        Expr e = x.signed() ? call(v(x.name()), "asUInt") : v(x.name());
        return x.width() > bits ? call(e, "trunc", i(bits)) : e;
    }

    private void register(Val a, boolean s) {
        int w = a.width();
        String n = fresh("r");
        int kind = rnd.nextInt(4);
        if (kind == 0) {
            out.add(new Program.Let(n, hdl("regNext", v(a.name()))));
        } else if (kind == 1) {
            out.add(new Program.Let(n, hdl("regEnable", v(a.name()), cond())));
        } else {
            Expr t = type(w, s);
            boolean reset = kind == 2;
            out.add(new Program.Let(n, reset ? hdl("regInit", t, l(0)) : hdl("reg", t)));
            Val src = pick();
            Expr assign = call(v(n), "assign", fit(src, w, s));
            // the next value is connected at the end, so the register may feed its own input
            late.add(rnd.nextBoolean() ? new Program.Do(assign)
                    : new Program.When(List.of(cond()), List.of(List.of(new Program.Do(assign))), null));
        }
        vals.add(new Val(n, w, s));
    }

    private void whenWire() {
        int w = width();
        boolean s = rnd.nextInt(4) == 0;
        String n = fresh("w");
        boolean dflt = rnd.nextBoolean();
        out.add(new Program.Let(n, dflt ? hdl("wireDefault", type(w, s), l(0)) : hdl("wire", type(w, s))));
        out.add(whenTree(n, w, s, 0, !dflt));
        vals.add(new Val(n, w, s));
    }

    private Stmt whenTree(String target, int w, boolean s, int depth, boolean complete) {
        int branches = 1 + rnd.nextInt(3);
        List<Expr> conds = new ArrayList<>();
        List<List<Stmt>> bodies = new ArrayList<>();
        for (int k = 0; k < branches; k++) {
            conds.add(cond());
            bodies.add(body(target, w, s, depth, complete));
        }
        List<Stmt> other = complete || rnd.nextBoolean() ? body(target, w, s, depth, complete) : null;
        return new Program.When(conds, bodies, other);
    }

    private List<Stmt> body(String target, int w, boolean s, int depth, boolean complete) {
        List<Stmt> b = new ArrayList<>();
        boolean nested = depth < 2 && rnd.nextInt(3) == 0;
        if (!nested || complete || rnd.nextBoolean()) {
            b.add(new Program.Do(call(v(target), "assign", fit(pick(), w, s))));
        }
        if (nested) {
            b.add(whenTree(target, w, s, depth + 1, false));
        }
        return b;
    }

    private void memory() {
        int depth = rnd.nextBoolean() ? 1 << (1 + rnd.nextInt(5)) : 1 + rnd.nextInt(40);
        int w = rnd.nextInt(5) == 0 ? 65 + rnd.nextInt(100) : 1 + rnd.nextInt(32);
        String m = fresh("mem");
        Expr mem = hdl("mem", i(depth), hdl("UInt", i(w)));
        if (rnd.nextBoolean() && w <= 62) {
            List<Expr> init = new ArrayList<>();
            for (int k = 0; k < Math.min(depth, 5); k++) {
                init.add(l(rnd.nextLong() & ((1L << w) - 1)));
            }
            mem = new Program.Call(mem, "init", init);
        }
        out.add(new Program.Let(m, mem));
        int aw = 64 - Long.numberOfLeadingZeros(Math.max(1, depth - 1)) + (rnd.nextInt(4) == 0 ? 1 : 0);
        for (int k = 0, n = 1 + rnd.nextInt(2); k < n; k++) {
            Stmt wr = new Program.Do(call(v(m), "write", amount(pick(), aw), fit(pick(), w, false)));
            late.add(rnd.nextBoolean() ? wr : new Program.When(List.of(cond()), List.of(List.of(wr)), null));
        }
        let(call(v(m), "read", amount(pick(), aw)), w, false);
        if (rnd.nextBoolean()) {
            let(call(v(m), "readSync", amount(pick(), aw)), w, false);
        } else {
            let(call(v(m), "readSync", amount(pick(), aw), cond()), w, false);
        }
    }

    private void child() {
        Shape sub = new Shape(2 + rnd.nextInt(3), 6 + rnd.nextInt(10), 2, shape.maxWidth(), shape.childDepth() - 1, shape.wideDivision());
        String cname = "Child" + next;
        Program p = new RandomProgram(rnd.nextLong(), sub, "").build(false);
        String c = fresh("c");
        out.add(new Program.Let(c, new Program.Child(cname, p)));
        for (Stmt st : p.stmts) {
            if (st instanceof Program.Let let && let.expr() instanceof Program.Call call && call.method().equals("named")) {
                Program.Call in = (Program.Call) call.target();
                Program.Call t = (Program.Call) in.args().get(0);
                int w = (int) ((Program.Num) t.args().get(0)).value();
                boolean s = t.method().equals("SInt");
                out.add(new Program.Do(call(call(v(c), "port", new Program.Str(let.name())), "assign", fit(pick(), w, s))));
            }
        }
        for (Stmt st : p.stmts) {
            if (st instanceof Program.Output o) {
                String n = fresh("n");
                out.add(new Program.Let(n, call(v(c), "port", new Program.Str(o.name()))));
                vals.add(childOutput(n, p, o));
            }
        }
    }

    /** Type of a child's output, found by building the child program once. */
    private static Val childOutput(String n, Program p, Program.Output o) {
        org.flitkit.hdl.Circuit c = org.flitkit.hdl.Circuit.elaborate(() -> new ProgramDesign("Probe", p));
        org.flitkit.hdl.Bits port = ((ProgramDesign) c.top()).outs.get(o.name());
        return new Val(n, port.width(), port.isSigned());
    }
}
