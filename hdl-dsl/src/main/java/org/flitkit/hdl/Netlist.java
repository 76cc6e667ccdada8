package org.flitkit.hdl;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flattened circuit as the simulator sees it: every live combinational node in an evaluation order
 * (each after its inputs), the state elements, and the driver of each signal. Building the order is
 * where combinational loops are found and reported with the whole cycle.
 */
public final class Netlist {
    private final Module top;
    private final List<Bits> inputs = new ArrayList<>();
    private final List<Bits> outputs = new ArrayList<>();
    private final List<Bits> regs = new ArrayList<>();
    private final List<Bits> syncReads = new ArrayList<>();
    private final List<Mem<?>> mems = new ArrayList<>();
    private final List<Bits> named = new ArrayList<>();
    private final List<Bits> comb = new ArrayList<>();
    private final List<Check> checks = new ArrayList<>();
    private final Map<Bits, Bits> driver = new IdentityHashMap<>();

    Netlist(Module top, List<Module> modules, List<String> errors) {
        this.top = top;
        for (Module m : modules) {
            driver.putAll(m.drivers);
            regs.addAll(m.regs);
            syncReads.addAll(m.syncReads);
            mems.addAll(m.mems);
            named.addAll(m.ports);
            named.addAll(m.wires);
            named.addAll(m.regs);
            named.addAll(m.namedOps);
            named.addAll(m.syncReads);
            checks.addAll(m.checks);
        }
        for (Bits p : top.ports) {
            (p.kind == Kind.INPUT ? inputs : outputs).add(p);
        }
        order(errors);
    }

    /** Combinational inputs of a node: operands, or the driver of a wire/port. */
    public List<Bits> combDeps(Bits n) {
        switch (n.kind) {
            case OP:
                return List.of(n.args);
            case WIRE:
            case OUTPUT:
            case INPUT: {
                Bits d = driver.get(n);
                return d == null ? List.of() : List.of(d);
            }
            default:
                return List.of();
        }
    }

    private void order(List<String> errors) {
        Map<Bits, Integer> state = new IdentityHashMap<>();
        List<Bits> roots = new ArrayList<>(named);
        for (Bits r : regs) {
            roots.add(driver.get(r));
            if (r.init != null) {
                roots.add(r.init);
            }
        }
        for (Bits s : syncReads) {
            roots.addAll(List.of(s.args));
        }
        for (Mem<?> mem : mems) {
            for (Mem.Write w : mem.writes) {
                roots.add(w.addr());
                roots.add(w.data());
                roots.add(w.enable());
            }
        }
        for (Check c : checks) {
            roots.addAll(c.reads());
        }
        Deque<Bits> stack = new ArrayDeque<>();
        Deque<Integer> next = new ArrayDeque<>();
        for (Bits root : roots) {
            if (root == null || state.containsKey(root)) {
                continue;
            }
            stack.push(root);
            next.push(0);
            state.put(root, 1);
            while (!stack.isEmpty()) {
                Bits n = stack.peek();
                List<Bits> deps = combDeps(n);
                int i = next.pop();
                if (i < deps.size()) {
                    next.push(i + 1);
                    Bits d = deps.get(i);
                    Integer s = state.get(d);
                    if (s == null) {
                        state.put(d, 1);
                        stack.push(d);
                        next.push(0);
                    } else if (s == 1) {
                        errors.add(loopMessage(stack, d));
                        return;
                    }
                } else {
                    stack.pop();
                    state.put(n, 2);
                    if (isComb(n)) {
                        comb.add(n);
                    }
                }
            }
        }
    }

    private static boolean isComb(Bits n) {
        return n.kind == Kind.OP || n.kind == Kind.WIRE || n.kind == Kind.OUTPUT
                || n.kind == Kind.INPUT && n.owner.parent != null;
    }

    private static String loopMessage(Deque<Bits> stack, Bits back) {
        List<Bits> cycle = new ArrayList<>();
        for (Bits b : stack) {
            cycle.add(b);
            if (b == back) {
                break;
            }
        }
        Collections.reverse(cycle);
        StringBuilder sb = new StringBuilder("combinational loop: ");
        for (Bits b : cycle) {
            sb.append(b.describe()).append(" -> ");
        }
        sb.append(back.describe());
        return sb.toString();
    }

    public Module top() {
        return top;
    }

    /** Top-level inputs (driven by the testbench), in declaration order. */
    public List<Bits> inputs() {
        return Collections.unmodifiableList(inputs);
    }

    public List<Bits> outputs() {
        return Collections.unmodifiableList(outputs);
    }

    public List<Bits> regs() {
        return Collections.unmodifiableList(regs);
    }

    public List<Bits> syncReads() {
        return Collections.unmodifiableList(syncReads);
    }

    public List<Mem<?>> mems() {
        return Collections.unmodifiableList(mems);
    }

    /** Every signal with a user-visible name: ports, wires, registers, named expressions, all instances. */
    public List<Bits> namedSignals() {
        return Collections.unmodifiableList(named);
    }

    /** Live combinational nodes, each after everything it depends on. */
    public List<Bits> combOrder() {
        return Collections.unmodifiableList(comb);
    }

    /** Every assertion and print of the design, modules in tree order, each module's in program order. */
    public List<Check> checks() {
        return Collections.unmodifiableList(checks);
    }

    /** Driver of a wire, output or child input; next value of a register. */
    public Bits driverOf(Bits target) {
        return driver.get(target);
    }
}
