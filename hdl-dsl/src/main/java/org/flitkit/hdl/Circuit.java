package org.flitkit.hdl;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * An elaborated design: the module tree after construction, naming, when-lowering and every check.
 * {@code Circuit.elaborate(() -> new Top())} either returns a circuit that simulates exactly as its
 * Verilog does, or throws one {@link HdlException} listing every problem with names and source lines.
 */
public final class Circuit {
    private final Module top;
    private final List<Module> modules;
    private final Netlist netlist;

    private Circuit(Module top, List<Module> modules, Netlist netlist) {
        this.top = top;
        this.modules = modules;
        this.netlist = netlist;
    }

    public static Circuit elaborate(Supplier<? extends Module> topMaker) {
        return elaborate(null, topMaker);
    }

    /** Elaborates with an explicit top instance name (default: the class name, first letter lower case). */
    public static Circuit elaborate(String topName, Supplier<? extends Module> topMaker) {
        Builder b = Builder.open();
        b.topName = topName;
        try {
            Module top = topMaker.get();
            if (top == null || top.parent != null) {
                throw new HdlException("the elaborate() supplier must return a newly created top module");
            }
            if (b.current() != top) {
                Module open = b.current();
                throw new HdlException("module " + open.getClass().getSimpleName() + " created at " + open.loc
                        + " was never passed to instance()");
            }
            b.stack.pop();
            top.closed = true;
            if (topName == null) {
                top.instName = Module.decapitalize(top.definitionName());
            }
            Namer.name(top);
            List<Module> modules = new ArrayList<>();
            preorder(top, modules);
            List<String> errors = new ArrayList<>();
            b.errors.forEach(e -> errors.add(e.get()));
            for (Module m : b.all) {
                if (!m.closed) {
                    errors.add("module " + m.getClass().getSimpleName() + " created at " + m.loc + " was never passed to instance()");
                }
            }
            if (errors.isEmpty()) {
                for (Module m : modules) {
                    Lowering.lower(m, errors);
                }
            }
            Netlist net = null;
            if (errors.isEmpty()) {
                net = new Netlist(top, modules, errors);
            }
            if (!errors.isEmpty()) {
                throw new HdlException(errors);
            }
            return new Circuit(top, List.copyOf(modules), net);
        } finally {
            Builder.close();
        }
    }

    private static void preorder(Module m, List<Module> out) {
        out.add(m);
        for (Module c : m.children) {
            preorder(c, out);
        }
    }

    public Module top() {
        return top;
    }

    /** Every module instance, parents before children. */
    public List<Module> modules() {
        return modules;
    }

    public Netlist netlist() {
        return netlist;
    }

    /** Number of register bits in the design. */
    public long registerBits() {
        long n = 0;
        for (Bits r : netlist.regs()) {
            n += r.width;
        }
        return n;
    }
}
