package org.flitkit.hdl;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Finds the dead logic of one module: registers, wires, named expressions, registered memory reads and
 * memories whose value reaches none of what the module makes observable (its outputs, the inputs of its
 * children, the assertions and prints of {@link Hdl#check}/{@link Hdl#printf}), directly or through
 * other live logic. A memory is live when live logic reads it; its writes are then live too.
 */
final class Liveness {
    private final Module m;
    private final Set<Bits> live = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Mem<?>> liveMems = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Deque<Bits> work = new ArrayDeque<>();

    private Liveness(Module m) {
        this.m = m;
    }

    /** Marks what is dead in {@code m} (see {@link Module#isDead}) and adds one warning per dead signal. */
    static void analyse(Module m, List<Circuit.Warning> warnings) {
        new Liveness(m).run(warnings);
    }

    private void run(List<Circuit.Warning> warnings) {
        for (Bits p : m.ports) {
            if (p.kind == Kind.OUTPUT) {
                mark(p);
            }
        }
        for (Module c : m.children) {
            for (Bits p : c.ports) {
                if (p.kind == Kind.INPUT) {
                    mark(p);
                }
            }
        }
        for (Check c : m.checks) {
            c.reads().forEach(this::mark);
        }
        while (!work.isEmpty()) {
            follow(work.pop());
        }
        report(m.regs, "register", warnings);
        report(m.wires, "wire", warnings);
        report(m.namedOps, "expression", warnings);
        report(m.syncReads, "memory read", warnings);
        for (Mem<?> mem : m.mems) {
            if (!liveMems.contains(mem)) {
                m.deadMems.add(mem);
                warnings.add(new Circuit.Warning(mem.path(), mem.loc, "memory " + mem.path() + " (" + mem.loc
                        + ") is never read by live logic; it is simulated but left out of the Verilog"));
            }
        }
    }

    private void mark(Bits n) {
        if (n != null && n.kind != Kind.LIT && live.add(n)) {
            work.push(n);
        }
    }

    /** Marks what the value of a live node is computed from, within this module. */
    private void follow(Bits n) {
        switch (n.kind) {
            case OP -> {
                for (Bits a : n.args) {
                    mark(a);
                }
                if (n.op == Op.MEM_READ) {
                    markMem(n.mem);
                }
            }
            case MEM_SYNC_READ -> {
                for (Bits a : n.args) {
                    mark(a);
                }
                markMem(n.mem);
            }
            case REG -> {
                mark(m.drivers.get(n));
                mark(n.init);
            }
            case WIRE -> mark(m.drivers.get(n));
            // own outputs and the inputs of children are driven here; own inputs and children's outputs are sources
            case OUTPUT, INPUT -> {
                if (m.drivers.containsKey(n)) {
                    mark(m.drivers.get(n));
                }
            }
            default -> {
            }
        }
    }

    private void markMem(Mem<?> mem) {
        if (mem.owner == m && liveMems.add(mem)) {
            for (Mem.Write w : mem.writes) {
                mark(w.addr());
                mark(w.data());
                mark(w.enable());
            }
        }
    }

    private void report(List<Bits> signals, String what, List<Circuit.Warning> warnings) {
        for (Bits b : signals) {
            if (!live.contains(b) && m.dead.add(b)) {
                warnings.add(new Circuit.Warning(b.path(), b.loc, what + " " + b.path() + " (" + b.loc
                        + ") drives nothing: its value reaches no output, child input, memory write or check;"
                        + " it is simulated but left out of the Verilog"));
            }
        }
    }
}
