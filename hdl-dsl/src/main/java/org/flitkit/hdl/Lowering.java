package org.flitkit.hdl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a module's when-tree of connections into one driver expression per target (last connect wins,
 * branches become multiplexers), and reports targets not driven on every path.
 */
final class Lowering {
    /** marks "no connect applied on this path" */
    private static final Bits UNDRIVEN = new UInt(1);
    /** marks "driven on some paths only" */
    private static final Bits PARTIAL = new UInt(1);

    private final Module m;

    private Lowering(Module m) {
        this.m = m;
    }

    static void lower(Module m, List<String> errors) {
        new Lowering(m).run(errors);
    }

    /** Values assigned in one scope, falling back to the enclosing scope. */
    private final class Env {
        final Env parent;
        final Map<Bits, Bits> local = new HashMap<>();
        final Set<Bits> order = new LinkedHashSet<>();

        Env(Env parent) {
            this.parent = parent;
        }

        Bits get(Bits t) {
            for (Env e = this; e != null; e = e.parent) {
                Bits v = e.local.get(t);
                if (v != null) {
                    return v;
                }
            }
            return t.kind == Kind.REG ? t : t.dflt != null ? t.dflt : UNDRIVEN;
        }

        void put(Bits t, Bits v) {
            local.put(t, v);
            order.add(t);
        }
    }

    private void run(List<String> errors) {
        Env env = new Env(null);
        block(m.body, env);
        List<Bits> targets = new ArrayList<>();
        for (Bits p : m.ports) {
            if (p.kind == Kind.OUTPUT) {
                targets.add(p);
            }
        }
        targets.addAll(m.wires);
        for (Module c : m.children) {
            for (Bits p : c.ports) {
                if (p.kind == Kind.INPUT) {
                    targets.add(p);
                }
            }
        }
        targets.addAll(m.regs);
        for (Bits t : targets) {
            Bits v = env.get(t);
            if (v == UNDRIVEN) {
                errors.add(what(t) + " " + t.path() + " (created at " + t.loc + ") is never driven");
            } else if (v == PARTIAL) {
                errors.add(what(t) + " " + t.path() + " (created at " + t.loc
                        + ") is not driven on every path; add an otherwise() or give it a default with wireDefault()");
            } else {
                m.drivers.put(t, v);
            }
        }
    }

    private static String what(Bits t) {
        return switch (t.kind) {
            case OUTPUT -> "output";
            case INPUT -> "input of child instance";
            default -> "wire";
        };
    }

    private void block(Stmt.Block b, Env env) {
        for (Stmt s : b.stmts) {
            if (s instanceof Stmt.Connect c) {
                env.put(c.target(), c.value());
            } else {
                when((Stmt.When) s, env);
            }
        }
    }

    private void when(Stmt.When w, Env env) {
        List<Env> branches = new ArrayList<>();
        Set<Bits> touched = new LinkedHashSet<>();
        for (Stmt.Block blk : w.blocks) {
            Env e = new Env(env);
            block(blk, e);
            branches.add(e);
            touched.addAll(e.order);
        }
        Env other = null;
        if (w.otherwise != null) {
            other = new Env(env);
            block(w.otherwise, other);
            touched.addAll(other.order);
        }
        for (Bits t : touched) {
            Bits v = other != null ? other.get(t) : env.get(t);
            for (int i = branches.size() - 1; i >= 0; i--) {
                v = mux(w.conds.get(i), branches.get(i).get(t), v);
            }
            env.put(t, v);
        }
    }

    private Bits mux(Bool c, Bits a, Bits b) {
        if (a == b) {
            return a;
        }
        if (a == UNDRIVEN || a == PARTIAL || b == UNDRIVEN || b == PARTIAL) {
            return PARTIAL;
        }
        Bits n = a.sameKind(a.width);
        n.kind = Kind.OP;
        n.op = Op.MUX;
        n.args = new Bits[] {c, a, b};
        n.owner = m;
        return n;
    }
}
