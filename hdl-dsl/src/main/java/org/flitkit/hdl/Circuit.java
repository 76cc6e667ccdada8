package org.flitkit.hdl;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * An elaborated design: the module tree after construction, naming, when-lowering and every check.
 * {@code Circuit.elaborate(() -> new Top())} either returns a circuit that simulates exactly as its
 * Verilog does, or throws one {@link HdlException} listing every problem with names and source lines.
 * What is legal but suspicious, such as dead logic, comes back as {@link #warnings()}.
 */
public final class Circuit {
    /**
     * Something legal but probably unintended.
     *
     * @param signal hierarchical name of the signal or memory concerned
     * @param loc the user's line that declared it
     * @param message the whole text, naming the signal and its line
     */
    public record Warning(String signal, SrcLoc loc, String message) {
        @Override
        public String toString() {
            return message;
        }
    }

    private final Module top;
    private final List<Module> modules;
    private final Netlist netlist;
    private final List<Warning> warnings;
    private boolean warningsReported;

    private Circuit(Module top, List<Module> modules, Netlist netlist, List<Warning> warnings) {
        this.top = top;
        this.modules = modules;
        this.netlist = netlist;
        this.warnings = List.copyOf(warnings);
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
                throw new HdlException(notInstantiated(b.current()));
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
                    errors.add(notInstantiated(m));
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
            List<Warning> warnings = new ArrayList<>(b.warnings);
            for (Module m : modules) {
                Liveness.analyse(m, warnings);
            }
            return new Circuit(top, List.copyOf(modules), net, warnings);
        } finally {
            Builder.close();
        }
    }

    private static String notInstantiated(Module m) {
        return "module " + m.getClass().getSimpleName() + " created at " + m.loc
                + " was never passed to instance(); write instance(new " + m.getClass().getSimpleName() + "(...))";
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

    /**
     * Problems that do not stop elaboration: first {@code .named("x")} calls whose line assigns the signal to
     * a Java variable of another name, in program order; then, modules in tree order, a register, wire, named
     * expression, registered memory read or memory whose value reaches no output, child input, memory write
     * or check is dead logic (simulated, shown in waves, but left out of the Verilog).
     */
    public List<Warning> warnings() {
        return warnings;
    }

    /**
     * Prints the warnings to standard error, the first time only: {@code Simulator.of} and the Verilog
     * emitter both call this, so a design built once and then simulated and emitted shows them once.
     */
    public void reportWarnings() {
        reportWarnings(w -> System.err.println("warning: " + w.message()));
    }

    /** Hands each warning to {@code sink}, the first time only (nothing is printed afterwards). */
    public synchronized void reportWarnings(java.util.function.Consumer<Warning> sink) {
        if (!warningsReported) {
            warningsReported = true;
            warnings.forEach(sink);
        }
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
