package org.flitkit.hdl.sim;

import static org.flitkit.hdl.sim.SourceText.*;
import static org.flitkit.hdl.sim.Wide.limbs;
import static org.flitkit.hdl.sim.Wide.maskOf;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Check;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Netlist;
import org.flitkit.hdl.Op;

/**
 * The slot layout pass: which values of a netlist are stored and where. Signals up to 64 bits live in
 * {@code v[]}, wider ones in {@code w[]}; wires share the slot of their driver; single-use narrow
 * expressions are inlined into their reader and get none; state sits in one contiguous block so the clock
 * edge commits with one arraycopy. Also finds what the emitters compute in place (parities of masked wide
 * values, limb-local values) and the free-running counters (docs/simulator.md). The layout is complete once
 * the activity plan has added the shadow copies and the emitters the narrow constants they pass by reference.
 */
final class SlotLayout {
    /** Inline at most this many operations into one expression. */
    private static final int INLINE_LIMIT = 24;

    private final Netlist net;
    /** narrow slot (index in v) or wide slot (offset in w) of each node that owns one */
    final Map<Bits, Integer> nslot = new IdentityHashMap<>();
    final Map<Bits, Integer> wslot = new IdentityHashMap<>();
    /** node whose storage another node shares (wires, reinterpretations) */
    final Map<Bits, Bits> aliasOf = new IdentityHashMap<>();
    private final Map<Bits, Integer> uses = new IdentityHashMap<>();
    private final Map<Bits, Boolean> needsSlot = new IdentityHashMap<>();
    final Map<Mem<?>, Integer> memIndex = new IdentityHashMap<>();
    /** wide ANDs read only by a parity reduction, which computes them on the fly */
    final java.util.Set<Bits> fusedParity = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    int nv;
    int nw;
    int stateBase;
    int stateCount;
    int wideStateBase;
    int wideStateCount;
    int scratchOff;
    /** initial contents of w (wide literals) */
    final List<long[]> wideConsts = new ArrayList<>();
    final List<Integer> wideConstOffsets = new ArrayList<>();
    /** {slot, value} of narrow constants that need storage */
    final List<long[]> narrowConsts = new ArrayList<>();
    final List<Bits> state = new ArrayList<>();
    final List<Bits> wideState = new ArrayList<>();

    SlotLayout(Netlist net) {
        this.net = net;
        analyse();
        allocate();
    }

    /** Operations that Wide performs on operands passed by reference (the rest take narrow operands as values). */
    private static final java.util.Set<Op> BY_REFERENCE = java.util.EnumSet.of(Op.MUL, Op.DIV, Op.REM, Op.SHL, Op.SHR, Op.DSHL,
            Op.DSHR, Op.ADD, Op.SUB, Op.AND, Op.OR, Op.XOR, Op.NOT, Op.NEG, Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE);

    private void use(Bits n) {
        uses.merge(n, 1, Integer::sum);
    }

    private void analyse() {
        for (Bits n : net.combOrder()) {
            for (Bits d : net.combDeps(n)) {
                use(d);
            }
            // operations done by Wide take their operands as (array, offset): those need storage; a bitwise operation
            // computed limb by limb reads its operands' limbs, which may themselves be computed in place
            if (n.kind() == Kind.OP && BY_REFERENCE.contains(n.op()) && (wide(n) || anyWideArg(n)) && !limbLocal(n)) {
                for (Bits a : n.args()) {
                    needsSlot.put(a, true);
                }
            }
        }
        for (Bits r : net.regs()) {
            use(net.driverOf(r));
            if (r.resetValue() != null) {
                use(r.resetValue());
            }
        }
        for (Bits s : net.syncReads()) {
            for (Bits a : s.args()) {
                use(a);
            }
        }
        for (Mem<?> mem : net.mems()) {
            for (Mem.Write wr : mem.writes()) {
                use(wr.addr());
                use(wr.data());
                use(wr.enable());
            }
        }
        findCounters();
        // parity of a masked wide value (CRC equations): one pass over the limbs, no wide temporary
        for (Bits n : net.combOrder()) {
            if (n.kind() == Kind.OP && n.op() == Op.XORR) {
                Bits a = n.args().get(0);
                if (a.kind() == Kind.OP && a.op() == Op.AND && wide(a) && a.name() == null && uses.getOrDefault(a, 0) == 1) {
                    fusedParity.add(a);
                    // Wide.andParity reads both operands by reference
                    for (Bits x : a.args()) {
                        needsSlot.put(x, true);
                    }
                }
            }
        }
        // what checks read is read at the clock edge, and printed arguments are read by the Simulator
        for (Check c : net.checks()) {
            for (Bits r : c.reads()) {
                use(r);
                needsSlot.put(r, true);
            }
        }
        findLimbInlined();
    }

    /** Wide values computed limb by limb inside their only reader instead of being stored (see {@link #findLimbInlined}). */
    final java.util.Set<Bits> limbInlined = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    /**
     * A wide select, zero-extension, slice at a limb boundary or bitwise AND, OR, XOR of operands of its width, of at
     * most {@link WideEmitter#UNROLL_LIMBS} limbs: each limb of it comes from the same limb of its operands (or is 0).
     */
    static boolean limbLocal(Bits n) {
        if (n.kind() != Kind.OP || !wide(n) || limbs(n.width()) > WideEmitter.UNROLL_LIMBS) {
            return false;
        }
        List<Bits> a = n.args();
        return switch (n.op()) {
            case MUX -> a.get(1).width() == n.width() && a.get(2).width() == n.width();
            case EXT -> wide(a.get(0)) && !a.get(0).isSigned() && a.get(0).width() <= n.width();
            case SLICE -> wide(a.get(0)) && (n.param1() & 63) == 0;
            // bitwise operations of values of its own width: limb i from limb i of each, no carry, no mask
            case AND, OR, XOR -> a.get(0).width() == n.width() && a.get(1).width() == n.width();
            default -> false;
        };
    }

    /**
     * A packet through a shift register or a FIFO of selects was stored once per select, pad and slice on
     * its way to the register: thirteen limb copies each, and a shadow comparison wherever it crossed a
     * chunk. An unnamed limb-local value (see {@link #limbLocal}) whose only reader is another one, or the
     * next value of a wide register, is instead computed inside that reader, limb by limb: a chain of
     * selects into a register becomes an if/else chain that writes each limb of the next value once.
     */
    private void findLimbInlined() {
        Map<Bits, Bits> reader = new IdentityHashMap<>();
        for (Bits n : net.combOrder()) {
            for (Bits d : net.combDeps(n)) {
                reader.put(d, n);
            }
        }
        for (Bits r : net.regs()) {
            reader.put(net.driverOf(r), r);
        }
        for (Bits n : net.combOrder()) {
            // a slice or right shift of a stored value by a constant: two loads and a shift per limb
            boolean shifted = n.kind() == Kind.OP && (n.op() == Op.SLICE || n.op() == Op.SHR && !n.args().get(0).isSigned())
                    && wide(n) && wide(n.args().get(0)) && limbs(n.width()) <= WideEmitter.UNROLL_LIMBS
                    && !limbInlined.contains(rep(n.args().get(0)));
            if (!(limbLocal(n) || shifted) || n.name() != null || uses.getOrDefault(n, 0) != 1 || needsSlot.containsKey(n)) {
                continue;
            }
            Bits u = reader.get(n);
            boolean intoRegister = u != null && u.kind() == Kind.REG && wide(u) && net.driverOf(u) == n;
            boolean intoLimbLocal = u != null && limbLocal(u) && !fusedParity.contains(u) && !(u.op() == Op.MUX && u.args().get(0) == n);
            // a pad or aligned slice of a stored value is a load per limb, cheap to repeat where a
            // concatenation, an unaligned slice or a field read uses a limb twice
            boolean loads = (n.op() == Op.EXT || n.op() == Op.SLICE && (n.param1() & 63) == 0)
                    && !limbInlined.contains(rep(n.args().get(0)));
            boolean intoShifts = loads && u != null && u.kind() == Kind.OP && (u.op() == Op.SLICE || u.op() == Op.CAT)
                    && (!wide(u) && u.op() == Op.SLICE || wide(u) && limbs(u.width()) <= WideEmitter.UNROLL_LIMBS);
            if (intoRegister || intoLimbLocal || intoShifts) {
                limbInlined.add(n);
            }
        }
    }

    /** registers that step by a constant on every cycle (cycle counters): their readers wake only when they could see them */
    final java.util.Set<Bits> counters = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    /**
     * Comparisons of a counter with a constant (a timer's tick: EQ, NE, and ANDR and ORR, which compare with all
     * ones and zero). Each is stored and computed alone in a chunk, so the counter's step wakes that chunk only and
     * its readers wake when the comparison's value changes; a quiet design may skip time up to the next such change.
     */
    final Map<Bits, Match> matches = new IdentityHashMap<>();

    /** The comparison {@code counter == constant}, or its negation. */
    record Match(Bits counter, long constant, boolean negated) {
    }

    private Match match(Bits n) {
        if (n.kind() != Kind.OP) {
            return null;
        }
        if ((n.op() == Op.EQ || n.op() == Op.NE) && !wide(n.args().get(0))) {
            Bits x = throughWires(n.args().get(0));
            Bits y = throughWires(n.args().get(1));
            Bits counter = counters.contains(x) && y.kind() == Kind.LIT ? x : counters.contains(y) && x.kind() == Kind.LIT ? y : null;
            if (counter == null) {
                return null;
            }
            java.math.BigInteger k = (counter == x ? y : x).litValue();
            // a constant the counter cannot reach is left to the ordinary path
            return k.signum() < 0 || k.bitLength() > counter.width() ? null : new Match(counter, k.longValue(), n.op() == Op.NE);
        }
        if (n.op() == Op.ANDR || n.op() == Op.ORR) {
            Bits x = throughWires(n.args().get(0));
            if (counters.contains(x)) {
                return new Match(x, n.op() == Op.ANDR ? maskOf(x.width()) : 0, n.op() == Op.ORR);
            }
        }
        return null;
    }

    Bits throughWires(Bits n) {
        while (n != null && (n.kind() == Kind.WIRE || n.kind() == Kind.OUTPUT || n.kind() == Kind.INPUT) && net.driverOf(n) != null) {
            n = net.driverOf(n);
        }
        return n;
    }

    /**
     * Finds the free-running counters and gives a slot to the select of every mux that takes one of
     * them in an arm: while that select picks the other arm the mux does not see the counter, so the chunk
     * holding it need not run when only the counter moved (the select is read at the clock edge to decide).
     */
    private void findCounters() {
        for (Bits r : net.regs()) {
            Bits d = throughWires(net.driverOf(r));
            if (wide(r) || d == null || d.kind() != Kind.OP || (d.op() != Op.ADD && d.op() != Op.SUB)) {
                continue;
            }
            Bits x = throughWires(d.args().get(0));
            Bits y = throughWires(d.args().get(1));
            if (x == r && y.kind() == Kind.LIT || d.op() == Op.ADD && y == r && x.kind() == Kind.LIT) {
                counters.add(r);
            }
        }
        if (counters.isEmpty()) {
            return;
        }
        for (Bits n : net.combOrder()) {
            Match m = match(n);
            if (m != null) {
                matches.put(n, m);
                needsSlot.put(n, true);
            }
        }
        Map<Bits, List<Bits>> users = new IdentityHashMap<>();
        for (Bits n : net.combOrder()) {
            for (Bits d : net.combDeps(n)) {
                users.computeIfAbsent(d, k -> new ArrayList<>()).add(n);
            }
        }
        java.util.ArrayDeque<Bits> work = new java.util.ArrayDeque<>(counters);
        java.util.Set<Bits> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        while (!work.isEmpty()) {
            Bits n = work.poll();
            for (Bits u : users.getOrDefault(n, List.of())) {
                if (matches.containsKey(u)) {
                    continue;
                }
                if (u.kind() == Kind.OP && u.op() == Op.MUX && u.args().get(0) != n) {
                    needsSlot.put(u.args().get(0), true);
                } else if (seen.add(u) && (u.kind() != Kind.OP || uses.getOrDefault(u, 0) == 1 && u.name() == null)) {
                    // only through what is inlined into its single reader: a stored value in between must stay current
                    work.add(u);
                }
            }
        }
    }

    /**
     * Index of the storage of {@code r} (a node that is no alias) in {@code v} or {@code w}. A narrow constant
     * is given a slot the first time it is asked for: a wide operation takes it by reference.
     */
    int slot(Bits r) {
        if (r.kind() == Kind.LIT && !wide(r) && !nslot.containsKey(r)) {
            nslot.put(r, nv);
            narrowConsts.add(new long[] {nv++, r.litValue().longValue()});
        }
        Integer s = wide(r) ? wslot.get(r) : nslot.get(r);
        if (s == null) {
            throw new IllegalStateException("no slot for " + r + " (" + r.kind() + " " + r.op() + ")");
        }
        return s;
    }

    /** A new block of {@code w} holding the last value of a {@code width}-bit wide value read across chunks. */
    int shadow(int width) {
        int at = nw;
        nw += limbs(width);
        return at;
    }

    /** The node whose storage holds n's value (n itself unless n is a wire or reinterpretation). */
    Bits rep(Bits n) {
        Bits a = aliasOf.get(n);
        return a == null ? n : rep(a);
    }

    boolean slotted(Bits n) {
        return switch (n.kind()) {
            case LIT -> wide(n);
            case OP -> !fusedParity.contains(n) && !limbInlined.contains(n) && (isAlias(n) || wide(n) || n.name() != null || uses.getOrDefault(n, 0) != 1
                    || needsSlot.containsKey(n) || n.op() == Op.SEL || n.op() == Op.REM && anyWideArg(n)
                    || n.op() == Op.DIV && anyWideArg(n));
            default -> true;
        };
    }

    static boolean anyWideArg(Bits n) {
        for (Bits a : n.args()) {
            if (wide(a)) {
                return true;
            }
        }
        return false;
    }

    boolean isAlias(Bits n) {
        return aliasOf.containsKey(n);
    }

    private void allocate() {
        // state first, contiguous, so the commit is a single arraycopy
        for (Bits r : net.regs()) {
            (wide(r) ? wideState : state).add(r);
        }
        for (Bits s : net.syncReads()) {
            (wide(s) ? wideState : state).add(s);
        }
        for (Bits in : net.inputs()) {
            give(in);
        }
        stateBase = nv;
        wideStateBase = nw;
        for (Bits s : state) {
            give(s);
        }
        for (Bits s : wideState) {
            give(s);
        }
        stateCount = state.size();
        wideStateCount = nw - wideStateBase;
        limitInlining();
        // aliases: wires share their driver's storage when the driver has its own
        for (Bits n : net.combOrder()) {
            Bits d = null;
            if (n.kind() == Kind.WIRE || n.kind() == Kind.OUTPUT || n.kind() == Kind.INPUT) {
                d = net.driverOf(n);
            } else if (n.kind() == Kind.OP && (n.op() == Op.AS_UINT || n.op() == Op.AS_SINT)) {
                d = n.args().get(0);
            }
            if (d != null && (d.kind() != Kind.OP || slotted(d)) && (d.kind() != Kind.LIT || wide(d))) {
                aliasOf.put(n, d);
            }
        }
        for (Bits n : net.combOrder()) {
            if (!isAlias(n) && slotted(n)) {
                give(n);
            }
        }
        // wide literals used anywhere get constant slots
        for (Bits n : net.combOrder()) {
            for (Bits d : net.combDeps(n)) {
                constSlot(d);
            }
        }
        for (Bits r : net.regs()) {
            constSlot(net.driverOf(r));
            if (r.resetValue() != null) {
                constSlot(r.resetValue());
            }
        }
        for (Mem<?> mem : net.mems()) {
            for (Mem.Write wr : mem.writes()) {
                constSlot(wr.data());
            }
        }
        for (Check c : net.checks()) {
            c.format().args().forEach(this::constSlot);
        }
        int maxLimbs = 1;
        for (Bits n : net.namedSignals()) {
            maxLimbs = Math.max(maxLimbs, limbs(n.width()));
        }
        for (Bits n : net.combOrder()) {
            maxLimbs = Math.max(maxLimbs, limbs(n.width()));
        }
        scratchOff = nw;
        nw += 4 * maxLimbs + 8;
        for (int i = 0; i < net.mems().size(); i++) {
            memIndex.put(net.mems().get(i), i);
        }
    }

    /** Forces a slot on expressions that would inline more than {@link #INLINE_LIMIT} operations. */
    private void limitInlining() {
        Map<Bits, Integer> cost = new IdentityHashMap<>();
        for (Bits n : net.combOrder()) {
            if (n.kind() != Kind.OP || wide(n) || slotted(n)) {
                continue;
            }
            int c = 1;
            for (Bits a : n.args()) {
                c += cost.getOrDefault(a, 0);
            }
            if (c > INLINE_LIMIT) {
                needsSlot.put(n, true);
            } else {
                cost.put(n, c);
            }
        }
    }

    private void give(Bits n) {
        if (nslot.containsKey(n) || wslot.containsKey(n)) {
            return;
        }
        if (wide(n)) {
            wslot.put(n, nw);
            nw += limbs(n.width());
        } else {
            nslot.put(n, nv++);
        }
    }

    private void constSlot(Bits d) {
        if (d != null && d.kind() == Kind.LIT && wide(d) && !wslot.containsKey(d)) {
            wslot.put(d, nw);
            wideConstOffsets.add(nw);
            wideConsts.add(limbsOf(d.litValue(), d.width()));
            nw += limbs(d.width());
        }
    }
}
