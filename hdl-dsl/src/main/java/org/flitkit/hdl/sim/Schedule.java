package org.flitkit.hdl.sim;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Netlist;
import org.flitkit.hdl.Op;

/**
 * The schedule pass: the orders in which the generated code computes a netlist's combinational values and
 * next states. The flagged variants' order keeps each module instance together and puts constants first
 * ({@link #clustered}); the plain variant's follows the netlist, each next state right after the last
 * value it reads ({@link #fused}). See docs/simulator.md, "Chunks follow module instances".
 */
final class Schedule {
    private final Netlist net;
    private final SlotLayout layout;
    /** The flagged variants' order: constants first, then module instance by module instance. */
    final List<Item> clustered;
    /** The plain variant's order. */
    final List<Item> fused;

    Schedule(Netlist net, SlotLayout layout) {
        this.net = net;
        this.layout = layout;
        int[] constants = new int[1];
        this.clustered = List.copyOf(clusteredOrder(constants));
        this.constantItems = constants[0];
        this.fused = List.copyOf(fusedOrder());
    }

    /** A combinational node to compute, or a layout.state element whose next value to compute. */
    record Item(Bits node, boolean next) {
    }

    /**
     * The plain variant's order: combinational nodes in netlist order, with each layout.state element's
     * next-value statement placed right after the last value it reads, so it usually lands in the same
     * chunk and reads locals (where every chunk runs anyway, locality beats module boundaries).
     */
    private List<Item> fusedOrder() {
        List<Bits> order = net.combOrder();
        Map<Bits, Integer> pos = new IdentityHashMap<>();
        for (int i = 0; i < order.size(); i++) {
            pos.put(order.get(i), i);
        }
        List<List<Bits>> after = new ArrayList<>();
        for (int i = 0; i <= order.size(); i++) {
            after.add(new ArrayList<>());
        }
        List<Bits> allState = new ArrayList<>(layout.state);
        allState.addAll(layout.wideState);
        for (Bits s : allState) {
            List<Bits> reads = new ArrayList<>();
            if (s.kind() == Kind.MEM_SYNC_READ) {
                reads.addAll(s.args());
            } else {
                reads.add(net.driverOf(s));
                if (s.resetValue() != null) {
                    reads.add(s.resetValue());
                }
            }
            int last = -1;
            for (Bits r : reads) {
                last = Math.max(last, lastPosition(r, pos));
            }
            after.get(last + 1).add(s);
        }
        List<Item> items = new ArrayList<>();
        for (Bits s : after.get(0)) {
            items.add(new Item(s, true));
        }
        for (int i = 0; i < order.size(); i++) {
            items.add(new Item(order.get(i), false));
            for (Bits s : after.get(i + 1)) {
                items.add(new Item(s, true));
            }
        }
        return items;
    }

    /** Latest position in the order among the stored values an expression reads (through inlined operations). */
    private int lastPosition(Bits n, Map<Bits, Integer> pos) {
        Bits r = layout.rep(n);
        Integer p = pos.get(r);
        int best = -1;
        if (p != null && (layout.nslot.containsKey(r) || layout.wslot.containsKey(r))) {
            return p;
        }
        if (r.kind() == Kind.OP && !layout.nslot.containsKey(r) && !layout.wslot.containsKey(r)) {
            for (Bits a : r.args()) {
                best = Math.max(best, lastPosition(a, pos));
            }
            if (p != null) {
                best = Math.max(best, p);
            }
        }
        return best;
    }

    /**
     * Combinational nodes and next-layout.state computations in an evaluation order that keeps each module
     * instance's items together where dependencies allow (Kahn's algorithm, preferring the instance of
     * the item just placed): chunks then follow module boundaries, so a quiet instance sleeps as a whole.
     */
    private List<Item> clusteredOrder(int[] constants) {
        List<Item> items = new ArrayList<>();
        Map<Bits, Integer> index = new IdentityHashMap<>();
        for (Bits n : net.combOrder()) {
            index.put(n, items.size());
            items.add(new Item(n, false));
        }
        List<Bits> allState = new ArrayList<>(layout.state);
        allState.addAll(layout.wideState);
        for (Bits s : allState) {
            items.add(new Item(s, true));
        }
        int n = items.size();
        int[] pending = new int[n];
        List<List<Integer>> users = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            users.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            Item it = items.get(i);
            List<Bits> reads = new ArrayList<>();
            if (!it.next()) {
                reads.addAll(net.combDeps(it.node()));
            } else if (it.node().kind() == Kind.MEM_SYNC_READ) {
                reads.addAll(it.node().args());
            } else {
                reads.add(net.driverOf(it.node()));
                if (it.node().resetValue() != null) {
                    reads.add(it.node().resetValue());
                }
            }
            for (Bits r : reads) {
                Integer d = index.get(r);
                if (d != null && d != i) {
                    users.get(d).add(i);
                    pending[i]++;
                }
            }
        }
        Map<org.flitkit.hdl.Module, Integer> ownerIds = new IdentityHashMap<>();
        int[] owner = new int[n];
        for (int i = 0; i < n; i++) {
            owner[i] = ownerIds.computeIfAbsent(items.get(i).node().owner(), k -> ownerIds.size());
        }
        List<java.util.ArrayDeque<Integer>> ready = new ArrayList<>();
        for (int o = 0; o < ownerIds.size(); o++) {
            ready.add(new java.util.ArrayDeque<>());
        }
        List<Item> order = new ArrayList<>(n);
        // constants first, in chunks of their own: nothing ever raises their flags after the first
        // evaluation, so tied-off ports and constant wires stop costing a statement in every cycle
        boolean[] placed = new boolean[n];
        items.forEach(this::isConstant); // in evaluation order, so that the memo keeps the recursion shallow
        for (int i = 0; i < n; i++) {
            if (pending[i] == 0 && !placed[i] && isConstant(items.get(i))) {
                java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>(List.of(i));
                while (!work.isEmpty()) {
                    int c = work.poll();
                    placed[c] = true;
                    order.add(items.get(c));
                    for (int u : users.get(c)) {
                        if (--pending[u] == 0 && isConstant(items.get(u))) {
                            work.add(u);
                        }
                    }
                }
            }
        }
        constants[0] = order.size();
        java.util.PriorityQueue<Integer> owners = new java.util.PriorityQueue<>();
        for (int i = 0; i < n; i++) {
            if (pending[i] == 0 && !placed[i]) {
                ready.get(owner[i]).add(i);
                owners.add(owner[i]);
            }
        }
        int cur = -1;
        while (order.size() < n) {
            if (cur < 0 || ready.get(cur).isEmpty()) {
                cur = owners.remove();
                if (ready.get(cur).isEmpty()) {
                    cur = -1;
                    continue;
                }
            }
            int i = ready.get(cur).poll();
            order.add(items.get(i));
            for (int u : users.get(i)) {
                if (--pending[u] == 0) {
                    ready.get(owner[u]).add(u);
                    owners.add(owner[u]);
                }
            }
        }
        return order;
    }

    /** Items at the start of {@link #clustered} whose values are constants (see {@link #isConstant}). */
    final int constantItems;
    private final Map<Bits, Boolean> constant = new IdentityHashMap<>();

    /**
     * A combinational value that no register, memory or top-level input reaches: a literal, or an
     * operation or wire of such values only. Its value is the same in every cycle from the first on.
     */
    private boolean isConstant(Item it) {
        return !it.next() && isConstant(it.node());
    }

    private boolean isConstant(Bits n) {
        Boolean memo = constant.get(n);
        if (memo != null) {
            return memo;
        }
        List<Bits> deps = net.combDeps(n);
        boolean c = n.kind() == Kind.LIT || !deps.isEmpty() && (n.kind() != Kind.OP || n.op() != Op.MEM_READ);
        for (int i = 0; c && i < deps.size(); i++) {
            c = isConstant(deps.get(i));
        }
        constant.put(n, c);
        return c;
    }
}
