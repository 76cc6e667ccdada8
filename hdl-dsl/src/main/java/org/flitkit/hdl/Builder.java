package org.flitkit.hdl;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** Per-thread elaboration context: the stack of modules under construction and the errors found so far. */
final class Builder {
    private static final ThreadLocal<Builder> CURRENT = new ThreadLocal<>();

    final Deque<Module> stack = new ArrayDeque<>();
    /** rendered after elaboration, when every signal has its final hierarchical name */
    final List<java.util.function.Supplier<String>> errors = new ArrayList<>();
    String topName;
    /** warnings found while modules are built (see {@link NameCheck}), reported with the circuit's */
    final List<Circuit.Warning> warnings = new ArrayList<>();
    final List<Module> all = new ArrayList<>();

    static Builder get(String what) {
        Builder b = CURRENT.get();
        if (b == null || b.stack.isEmpty()) {
            throw new HdlException(what + " at " + SrcLoc.here()
                    + " is outside a module: build hardware inside a Module constructor elaborated by Circuit.elaborate()");
        }
        return b;
    }

    static Builder peek() {
        return CURRENT.get();
    }

    static Builder open() {
        if (CURRENT.get() != null) {
            throw new HdlException("Circuit.elaborate() at " + SrcLoc.here() + " called while another elaboration is running");
        }
        Builder b = new Builder();
        CURRENT.set(b);
        return b;
    }

    static void close() {
        CURRENT.remove();
    }

    Module current() {
        return stack.peek();
    }

    void error(java.util.function.Supplier<String> message) {
        errors.add(message);
    }

    /** Can module m read signal s? Its own signals, literals, and ports of its direct children. */
    boolean readable(Bits s, Module m) {
        if (s.kind == Kind.LIT || s.owner == m) {
            return true;
        }
        return s.kind.isPort() && s.owner != null && s.owner.parent == m;
    }

    static String crossModule(Bits s, Module m, SrcLoc at) {
        return "signal " + s.describe() + " is used in " + m.path() + " at " + at
                + ", but signals cross module boundaries only through the ports of a module or of its direct children";
    }
}
