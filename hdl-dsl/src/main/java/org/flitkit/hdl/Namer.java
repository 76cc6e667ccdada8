package org.flitkit.hdl;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Names hardware after the Java fields that hold it (as Chisel's naming plugin does), then gives the
 * rest stable fallback names and makes every name unique and legal in Verilog within its module.
 */
final class Namer {
    private static final Set<String> RESERVED = Set.of(("always and assign automatic begin buf bufif0 bufif1 case casex casez "
            + "cell cmos config deassign default defparam design disable edge else end endcase endconfig endfunction endgenerate "
            + "endmodule endprimitive endspecify endtable endtask event for force forever fork function generate genvar highz0 "
            + "highz1 if ifnone incdir include initial inout input instance integer join large liblist library localparam "
            + "macromodule medium module nand negedge nmos nor noshowcancelled not notif0 notif1 or output parameter pmos "
            + "posedge primitive pull0 pull1 pulldown pullup rcmos real realtime reg release repeat rnmos rpmos rtran rtranif0 "
            + "rtranif1 scalared showcancelled signed small specify specparam strong0 strong1 supply0 supply1 table task time "
            + "tran tranif0 tranif1 tri tri0 tri1 triand trior trireg unsigned use uwire vectored wait wand weak0 weak1 while "
            + "wire wor xnor xor logic bit byte int shortint longint string class struct union enum typedef interface "
            + "package import export bind assert assume cover property sequence final const var void static local "
            + "priority unique do break continue return this super new null chandle clocking modport program "
            + "clk reset").split(" "));

    private Namer() {
    }

    /** Names from fields while {@code m} or an ancestor is still being built; nothing once all are finished. */
    static void nameWhileBuilding(Module m) {
        for (Module x = m; x != null; x = x.parent) {
            if (!x.closed) {
                nameEarly(m);
                return;
            }
        }
    }

    /** Best-effort naming while a module is still under construction (for error messages). */
    static void nameEarly(Module m) {
        for (Module x = m; x != null; x = x.parent) {
            fromFields(x);
            if (x.parent != null) {
                fromFields(x.parent);
            }
        }
    }

    /** Final naming when a module is finished: fields, then fallbacks, then uniqueness. */
    static void name(Module m) {
        fromFields(m);
        Map<String, Integer> used = new HashMap<>();
        Set<Data> roots = new HashSet<>();
        for (Bits b : m.ports) {
            finish(m, root(b), "io", used, roots);
        }
        for (Bits b : m.regs) {
            finish(m, root(b), "_reg_" + b.loc.line(), used, roots);
        }
        for (Bits b : m.wires) {
            finish(m, root(b), "_wire_" + b.loc.line(), used, roots);
        }
        for (Bits b : m.namedOps) {
            finish(m, b, "_expr_" + b.loc.line(), used, roots);
        }
        for (Bits b : m.syncReads) {
            finish(m, b, "_rdata_" + b.loc.line(), used, roots);
        }
        for (Mem<?> mem : m.mems) {
            mem.name = unique(m, mem.name != null ? mem.name : "_mem_" + mem.loc.line(), mem.loc, used);
        }
        int i = 0;
        for (Module c : m.children) {
            String dflt = Character.toLowerCase(c.definitionName().charAt(0)) + c.definitionName().substring(1) + "_" + i++;
            c.instName = unique(m, c.instName != null ? c.instName : dflt, c.loc, used);
        }
    }

    private static Data root(Data d) {
        while (d.aggParent != null) {
            d = d.aggParent;
        }
        return d;
    }

    /** Freezes the final (unique, legal) name of every leaf under {@code root}. */
    private static void finish(Module m, Data root, String fallback, Map<String, Integer> used, Set<Data> done) {
        if (!done.add(root)) {
            return;
        }
        if (root.name == null) {
            root.name = fallback;
        }
        for (Bits leaf : root.leaves()) {
            String n = leaf.name();
            leaf.name = unique(m, n, leaf.loc, used);
            leaf.frozen = true;
        }
    }

    /** {@code n}, or {@code n_} when it is reserved, made unique in {@code used}; a renamed Java name is recorded. */
    private static String unique(Module m, String n, SrcLoc loc, Map<String, Integer> used) {
        String base = RESERVED.contains(n) ? n + "_" : n;
        Integer k = used.get(base);
        String name = base;
        if (k == null) {
            used.put(base, 0);
        } else {
            do {
                k++;
                name = base + "_" + k;
            } while (used.containsKey(name));
            used.put(base, k);
            used.put(name, 0);
        }
        if (!base.equals(n)) {
            m.renames.add(new Module.Rename(n, name, loc));
        }
        return name;
    }

    private static void fromFields(Module m) {
        for (Class<?> c = m.getClass(); c != null && c != Module.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic() || f.getType().isPrimitive()) {
                    continue;
                }
                Object v;
                try {
                    f.setAccessible(true);
                    v = f.get(m);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    continue;
                }
                offer(m, f.getName(), v);
            }
        }
    }

    private static void offer(Module m, String n, Object v) {
        if (v instanceof Data d) {
            if (d.owner == m && d.name == null && d.aggParent == null && !(d instanceof Bits b && b.kind == Kind.LIT)) {
                d.name = n;
                if (d instanceof Bits b && b.kind == Kind.OP && !m.namedOps.contains(b)) {
                    m.namedOps.add(b);
                }
            }
        } else if (v instanceof Module c) {
            if (c.parent == m && c.instName == null) {
                c.instName = n;
            }
        } else if (v instanceof Mem<?> mem) {
            if (mem.owner == m && mem.name == null) {
                mem.name = n;
            }
        } else if (v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                offer(m, n + "_" + i, l.get(i));
            }
        } else if (v != null && v.getClass().isArray() && !v.getClass().getComponentType().isPrimitive()) {
            for (int i = 0; i < Array.getLength(v); i++) {
                offer(m, n + "_" + i, Array.get(v, i));
            }
        }
    }
}
