package org.flitkit.tools.difftest;

import static org.flitkit.hdl.Hdl.output;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Hdl;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;

/** A module built by running a {@link Program}: every call in the program is made on the real DSL. */
public final class ProgramDesign extends Module {
    private final Map<String, Object> vars = new HashMap<>();
    /** output name -> port, in declaration order */
    public final Map<String, Bits> outs = new LinkedHashMap<>();
    private final String name;

    public ProgramDesign(String name, Program p) {
        this.name = name;
        run(p.stmts);
    }

    @Override
    public String definitionName() {
        return name;
    }

    /** A port of this design by name (inputs declared with input(...).named(n), outputs by Output). */
    public Bits port(String n) {
        for (Bits b : ports()) {
            if (n.equals(b.name())) {
                return b;
            }
        }
        throw new HdlException("no port " + n + " in " + name);
    }

    /** Output types as DSL type expressions, for printing the program as Java. */
    public Map<String, String> outputTypes() {
        Map<String, String> m = new HashMap<>();
        outs.forEach((k, b) -> m.put(k, (b.isSigned() ? "SInt(" : "UInt(") + b.width() + ")"));
        return m;
    }

    private void run(List<Program.Stmt> stmts) {
        for (Program.Stmt s : stmts) {
            if (s instanceof Program.Let let) {
                Object val = eval(let.expr());
                if (val instanceof org.flitkit.hdl.Data d && d.owner() == this && d.name() == null) {
                    d.named(let.name());
                } else if (val instanceof org.flitkit.hdl.Mem<?> m && m.name() == null) {
                    m.named(let.name());
                }
                vars.put(let.name(), val);
            } else if (s instanceof Program.Do d) {
                eval(d.expr());
            } else if (s instanceof Program.Output o) {
                Bits v = (Bits) eval(o.value());
                Bits port = output(v.isSigned() ? (Bits) Hdl.SInt(v.width()) : (Bits) Hdl.UInt(v.width())).named(o.name());
                port.assign(v);
                outs.put(o.name(), port);
            } else if (s instanceof Program.When w) {
                Hdl.When h = null;
                for (int k = 0; k < w.conds().size(); k++) {
                    org.flitkit.hdl.Bool c = (org.flitkit.hdl.Bool) eval(w.conds().get(k));
                    List<Program.Stmt> body = w.bodies().get(k);
                    h = h == null ? Hdl.when(c, () -> run(body)) : h.elsewhen(c, () -> run(body));
                }
                if (w.otherwise() != null) {
                    h.otherwise(() -> run(w.otherwise()));
                }
            }
        }
    }

    private Object eval(Program.Expr e) {
        if (e instanceof Program.Var v) {
            Object o = vars.get(v.name());
            if (o == null) {
                throw new HdlException("program uses undefined value " + v.name());
            }
            return o;
        }
        if (e instanceof Program.Num n) {
            return n.isLong() ? (Object) n.value() : (Object) (int) n.value();
        }
        if (e instanceof Program.Big b) {
            return b.value();
        }
        if (e instanceof Program.Str st) {
            return st.value();
        }
        if (e instanceof Program.Lst ls) {
            List<Object> items = new ArrayList<>();
            for (Program.Expr x : ls.items()) {
                items.add(eval(x));
            }
            return List.copyOf(items);
        }
        if (e instanceof Program.Child ch) {
            return Hdl.instance(new ProgramDesign(name + "_" + ch.name(), ch.program()));
        }
        Program.Call c = (Program.Call) e;
        Object target = c.target() == null ? null : eval(c.target());
        List<Object> args = new ArrayList<>();
        for (Program.Expr a : c.args()) {
            args.add(eval(a));
        }
        return invoke(target, c.method(), args);
    }

    static Object invoke(Object target, String method, List<Object> args) {
        Class<?> cls = target == null ? Hdl.class : target.getClass();
        for (Method m : cls.getMethods()) {
            if (!m.getName().equals(method) || m.getParameterCount() != args.size() || m.isVarArgs() && !fitsVarArgs(m, args)
                    || (target == null) != Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            Object[] a = args.toArray();
            if (m.isVarArgs()) {
                a = packVarArgs(m, args);
            } else if (!fits(m.getParameterTypes(), a)) {
                continue;
            }
            try {
                return m.invoke(target, a);
            } catch (InvocationTargetException ex) {
                if (ex.getCause() instanceof RuntimeException re) {
                    throw re;
                }
                throw new IllegalStateException(ex.getCause());
            } catch (IllegalAccessException ex) {
                throw new IllegalStateException(ex);
            }
        }
        for (Method m : cls.getMethods()) {
            if (m.getName().equals(method) && m.isVarArgs() && fitsVarArgs(m, args)) {
                try {
                    return m.invoke(target, packVarArgs(m, args));
                } catch (InvocationTargetException ex) {
                    throw ex.getCause() instanceof RuntimeException re ? re : new IllegalStateException(ex.getCause());
                } catch (IllegalAccessException ex) {
                    throw new IllegalStateException(ex);
                }
            }
        }
        throw new HdlException("no DSL method " + (target == null ? "Hdl" : cls.getSimpleName()) + "." + method + " for " + args);
    }

    private static boolean fits(Class<?>[] types, Object[] a) {
        for (int i = 0; i < types.length; i++) {
            if (!box(types[i]).isInstance(a[i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean fitsVarArgs(Method m, List<Object> args) {
        Class<?>[] t = m.getParameterTypes();
        int fixed = t.length - 1;
        if (args.size() < fixed) {
            return false;
        }
        for (int i = 0; i < args.size(); i++) {
            Class<?> want = i < fixed ? t[i] : t[fixed].getComponentType();
            if (!box(want).isInstance(args.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static Object[] packVarArgs(Method m, List<Object> args) {
        Class<?>[] t = m.getParameterTypes();
        int fixed = t.length - 1;
        Object[] out = new Object[t.length];
        for (int i = 0; i < fixed; i++) {
            out[i] = args.get(i);
        }
        Object rest = java.lang.reflect.Array.newInstance(t[fixed].getComponentType(), args.size() - fixed);
        for (int i = fixed; i < args.size(); i++) {
            java.lang.reflect.Array.set(rest, i - fixed, args.get(i));
        }
        out[fixed] = rest;
        return out;
    }

    private static Class<?> box(Class<?> c) {
        if (c == int.class) {
            return Integer.class;
        }
        if (c == long.class) {
            return Long.class;
        }
        if (c == boolean.class) {
            return Boolean.class;
        }
        return c;
    }
}
