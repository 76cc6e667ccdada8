package org.flitkit.hdl.sim;

import java.math.BigInteger;
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
 * Turns a {@link Netlist} into Java source for a {@link SimModel}. Signals up to 64 bits live in
 * {@code v[]}, wider ones in {@code w[]}; wires share the slot of their driver; single-use narrow
 * expressions are inlined into their user; state sits in one contiguous block so the clock edge
 * commits with one arraycopy. Statements are split into static methods small enough for the JIT.
 */
final class CodeGen {
    /** Generated-source characters per method; keeps Janino's bytecode well under HotSpot's 8,000-byte limit. */
    static final int METHOD_BUDGET = 12_000;
    /** Methods per generated class, to stay far from constant-pool limits. */
    static final int METHODS_PER_CLASS = 24;
    /** Inline at most this many operations into one expression. */
    private static final int INLINE_LIMIT = 24;

    final Netlist net;
    final String className;
    /** narrow slot (index in v) or wide slot (offset in w) of each node that owns one */
    final Map<Bits, Integer> nslot = new IdentityHashMap<>();
    final Map<Bits, Integer> wslot = new IdentityHashMap<>();
    /** node whose storage another node shares (wires, reinterpretations) */
    private final Map<Bits, Bits> aliasOf = new IdentityHashMap<>();
    private final Map<Bits, Integer> uses = new IdentityHashMap<>();
    private final Map<Bits, Boolean> needsSlot = new IdentityHashMap<>();
    private final Map<Mem<?>, Integer> memIndex = new IdentityHashMap<>();
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
    int[] memSizes;
    /** {slot, value} of narrow constants that need storage */
    final List<long[]> narrowConsts = new ArrayList<>();
    private final List<Bits> state = new ArrayList<>();
    private final List<Bits> wideState = new ArrayList<>();

    CodeGen(Netlist net, String className) {
        this.net = net;
        this.className = className;
    }

    static boolean wide(Bits n) {
        return n.width() > 64;
    }

    static int limbs(int width) {
        return (width + 63) >>> 6;
    }

    // ------------------------------------------------------------------ analysis

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
            // operations done by Wide take their operands as (array, offset): those need storage
            if (n.kind() == Kind.OP && BY_REFERENCE.contains(n.op()) && (wide(n) || anyWideArg(n))) {
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
        // what checks read is read at the clock edge, and printed arguments are read by the Simulator
        for (Check c : net.checks()) {
            for (Bits r : c.reads()) {
                use(r);
                needsSlot.put(r, true);
            }
        }
    }

    /** The node whose storage holds n's value (n itself unless n is a wire or reinterpretation). */
    Bits rep(Bits n) {
        Bits a = aliasOf.get(n);
        return a == null ? n : rep(a);
    }

    private boolean slotted(Bits n) {
        return switch (n.kind()) {
            case LIT -> wide(n);
            case OP -> isAlias(n) || wide(n) || n.name() != null || uses.getOrDefault(n, 0) != 1
                    || needsSlot.containsKey(n) || n.op() == Op.SEL || n.op() == Op.REM && anyWideArg(n)
                    || n.op() == Op.DIV && anyWideArg(n);
            default -> true;
        };
    }

    private static boolean anyWideArg(Bits n) {
        for (Bits a : n.args()) {
            if (wide(a)) {
                return true;
            }
        }
        return false;
    }

    private boolean isAlias(Bits n) {
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
        memSizes = new int[net.mems().size()];
        for (int i = 0; i < memSizes.length; i++) {
            Mem<?> mem = net.mems().get(i);
            memIndex.put(mem, i);
            memSizes[i] = mem.depth() * (mem.width() > 64 ? limbs(mem.width()) : 1);
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

    static long[] limbsOf(BigInteger v, int width) {
        long[] l = new long[limbs(width)];
        for (int i = 0; i < l.length; i++) {
            l[i] = v.shiftRight(64 * i).longValue();
        }
        return l;
    }

    // ------------------------------------------------------------------ expressions

    static String hex(long x) {
        return "0x" + Long.toHexString(x) + "L";
    }

    static long maskOf(int w) {
        return w >= 64 ? -1L : (1L << w) - 1;
    }

    private static String mask(String e, int w) {
        return w >= 64 ? "(" + e + ")" : "((" + e + ") & " + hex(maskOf(w)) + ")";
    }

    private static String sext(String e, int w) {
        return w >= 64 ? e : "((" + e + " << " + (64 - w) + ") >> " + (64 - w) + ")";
    }

    /** Java array holding n (after aliasing): "v" or "w". */
    private String arr(Bits n) {
        return wide(rep(n)) ? "w" : "v";
    }

    /** Index of n's storage in its array. */
    int off(Bits n) {
        Bits r = rep(n);
        if (r.kind() == Kind.LIT && !wide(r) && !nslot.containsKey(r)) {
            // a narrow constant passed by reference to a wide operation
            nslot.put(r, nv);
            narrowConsts.add(new long[] {nv++, r.litValue().longValue()});
        }
        Integer s = wide(r) ? wslot.get(r) : nslot.get(r);
        if (s == null) {
            throw new IllegalStateException("no slot for " + r + " (" + r.kind() + " " + r.op() + ")");
        }
        return s;
    }

    /** Java expression (long) for a narrow node. */
    String ex(Bits n) {
        Bits r = rep(n);
        if (r.kind() == Kind.LIT) {
            return hex(r.litValue().longValue());
        }
        if (nslot.containsKey(r)) {
            return slotRead(nslot.get(r));
        }
        if (r.kind() != Kind.OP) {
            throw new IllegalStateException("unslotted " + r.kind() + " " + r);
        }
        return opExpr(r);
    }

    /**
     * Inside a chunk method every slot is loaded into a local at most once: HotSpot cannot tell the
     * elements of {@code v} apart, so each store to {@code v} would otherwise force reloads.
     */
    private String slotRead(int slot) {
        if (chunk == null) {
            mustStore.add(slot);
            return "v[" + slot + "]";
        }
        String name = chunk.locals.get(slot);
        if (name == null) {
            Integer producer = computedIn.get(slot);
            if (producer != null && producer != chunkIndex) {
                mustStore.add(slot);
            }
            name = "x" + slot;
            chunk.locals.put(slot, name);
            chunk.added.add(slot);
            chunk.preload.append("final long ").append(name).append(" = v[").append(slot).append("]; ");
            chunk.inputs.add(slot);
        }
        return name;
    }

    /** Locals of the chunk method being emitted, and loads the next statement needs first. */
    private static final class Chunk {
        final Map<Integer, String> locals = new java.util.HashMap<>();
        final List<Integer> added = new ArrayList<>();
        final StringBuilder preload = new StringBuilder();
        /** slots loaded from outside the chunk, in load order: what the chunk's result depends on */
        final List<Integer> inputs = new ArrayList<>();
    }

    private Chunk chunk;
    private int chunkIndex;
    /** chunk that computes each comb slot */
    private final Map<Integer, Integer> computedIn = new java.util.HashMap<>();
    /** comb slots read outside the chunk that computes them (other chunks, commit): the fast variant stores only these */
    private final java.util.Set<Integer> mustStore = new java.util.HashSet<>();
    /** emitting the fast variant: values only this chunk reads stay in locals */
    private boolean fast;

    private String opExpr(Bits n) {
        List<Bits> a = n.args();
        int w = n.width();
        Bits a0 = a.isEmpty() ? null : a.get(0);
        boolean s = a0 != null && a0.isSigned();
        switch (n.op()) {
            case ADD: return mask(ex(a0) + " + " + ex(a.get(1)), w);
            case SUB: return mask(ex(a0) + " - " + ex(a.get(1)), w);
            case MUL:
                return s ? mask(sext(ex(a0), a0.width()) + " * " + sext(ex(a.get(1)), a.get(1).width()), w)
                        : mask(ex(a0) + " * " + ex(a.get(1)), w);
            case DIV:
                return s ? "Wide.divS(" + ex(a0) + ", " + a0.width() + ", " + ex(a.get(1)) + ", " + a.get(1).width() + ", " + w + ")"
                        : "Wide.divU(" + ex(a0) + ", " + ex(a.get(1)) + ")";
            case REM:
                return s ? "Wide.remS(" + ex(a0) + ", " + a0.width() + ", " + ex(a.get(1)) + ", " + a.get(1).width() + ", " + w + ")"
                        : mask("Wide.remU(" + ex(a0) + ", " + ex(a.get(1)) + ")", w);
            case NEG: return mask("-" + ex(a0), w);
            case AND: return "(" + ex(a0) + " & " + ex(a.get(1)) + ")";
            case OR: return "(" + ex(a0) + " | " + ex(a.get(1)) + ")";
            case XOR: return "(" + ex(a0) + " ^ " + ex(a.get(1)) + ")";
            case NOT: return w >= 64 ? "(~" + ex(a0) + ")" : "(" + ex(a0) + " ^ " + hex(maskOf(w)) + ")";
            case SHL: return mask(ex(a0) + " << " + n.param0(), w);
            case SHR: return shrStatic(n, a0);
            case DSHL:
                return "Wide.shlN(" + (s ? mask(sext(ex(a0), a0.width()), w) : ex(a0)) + ", " + ex(a.get(1)) + ", " + w + ")";
            case DSHR:
                return s ? "Wide.sraN(" + ex(a0) + ", " + a0.width() + ", " + ex(a.get(1)) + ", " + w + ")"
                        : "Wide.shrN(" + ex(a0) + ", " + ex(a.get(1)) + ")";
            case EQ: case NE: case LT: case LE: case GT: case GE: return compare(n);
            case ANDR: return wide(a0) ? bool("Wide.andReduce(w, " + off(a0) + ", " + a0.width() + ")")
                    : bool(ex(a0) + " == " + hex(maskOf(a0.width())));
            case ORR: return wide(a0) ? bool("Wide.orReduce(w, " + off(a0) + ", " + a0.width() + ")") : bool(ex(a0) + " != 0L");
            case XORR: return wide(a0) ? bool("Wide.xorReduce(w, " + off(a0) + ", " + a0.width() + ")")
                    : "(long) (Long.bitCount(" + ex(a0) + ") & 1)";
            case SLICE:
                if (wide(a0)) {
                    return "Wide.extract(w, " + off(a0) + ", " + n.param1() + ", " + w + ")";
                }
                return n.param1() == 0 ? mask(ex(a0), w) : mask(ex(a0) + " >>> " + n.param1(), w);
            case CAT: {
                StringBuilder sb = new StringBuilder("(");
                int lo = w;
                for (int i = 0; i < a.size(); i++) {
                    Bits p = a.get(i);
                    lo -= p.width();
                    sb.append(i == 0 ? "" : " | ").append(lo == 0 ? ex(p) : "(" + ex(p) + " << " + lo + ")");
                }
                return sb.append(")").toString();
            }
            case MUX: return mux(ex(a0), ex(a.get(1)), ex(a.get(2)));
            case EXT: return s && a0.width() < w ? mask(sext(ex(a0), a0.width()), w) : ex(a0);
            case AS_UINT: case AS_SINT: return ex(a0);
            case MEM_READ: return memRead(n, ex(a0));
            default: throw new IllegalStateException("no expression for " + n.op());
        }
    }

    /**
     * A two-way select without a branch when one arm is a plain value: selects on pseudo-random
     * handshake signals mispredict often, and HotSpot does not always turn a ternary into a cmov.
     */
    static String mux(String c, String a, String b) {
        // a constant-zero arm is an AND with the select's mask (when/otherwise chains over a default 0)
        if (b.equals(ZERO)) {
            return "(" + a + " & -" + c + ")";
        }
        if (a.equals(ZERO)) {
            return "(" + b + " & (" + c + " - 1L))";
        }
        if (atomic(b)) {
            return "(" + b + " ^ ((" + a + " ^ " + b + ") & -" + c + "))";
        }
        if (atomic(a)) {
            return "(" + a + " ^ ((" + a + " ^ " + b + ") & (" + c + " - 1L)))";
        }
        return "(" + c + " != 0L ? " + a + " : " + b + ")";
    }

    private static final String ZERO = "0x0L";
    private static final java.util.regex.Pattern ATOMIC = java.util.regex.Pattern.compile("v\\[\\d+\\]|x\\d+|0x[0-9a-f]+L");

    private static boolean atomic(String e) {
        return e.length() < 24 && ATOMIC.matcher(e).matches();
    }

    private String shrStatic(Bits n, Bits a0) {
        int p = n.param0();
        int aw = a0.width();
        if (wide(a0)) {
            int lo = Math.min(p, aw - 1);
            return "Wide.extract(w, " + off(a0) + ", " + lo + ", " + n.width() + ")";
        }
        if (a0.isSigned()) {
            return mask("(" + sext(ex(a0), aw) + " >> " + Math.min(p, 63) + ")", n.width());
        }
        return p >= aw ? "0L" : "(" + ex(a0) + " >>> " + p + ")";
    }

    private static String bool(String cond) {
        return "(" + cond + " ? 1L : 0L)";
    }

    private String compare(Bits n) {
        Bits x = n.args().get(0);
        Bits y = n.args().get(1);
        boolean s = x.isSigned();
        Op op = n.op();
        if (op == Op.GT || op == Op.LE) {
            Bits t = x;
            x = y;
            y = t;
        }
        boolean negate = op == Op.NE || op == Op.LE || op == Op.GE;
        String c;
        if (wide(x)) {
            String args = "w, " + off(x) + ", w, " + off(y) + ", " + x.width() + ")";
            c = (op == Op.EQ || op == Op.NE) ? "Wide.eq(" + args : (s ? "Wide.lts(" : "Wide.ltu(") + args;
        } else if (op == Op.EQ || op == Op.NE) {
            c = ex(x) + " == " + ex(y);
        } else if (s) {
            c = sext(ex(x), x.width()) + " < " + sext(ex(y), y.width());
        } else if (x.width() >= 64) {
            c = "Long.compareUnsigned(" + ex(x) + ", " + ex(y) + ") < 0";
        } else {
            c = ex(x) + " < " + ex(y);
        }
        return negate ? bool("!(" + c + ")") : bool(c);
    }

    private String memRead(Bits n, String addr) {
        Mem<?> mem = n.mem();
        int k = memIndex.get(mem);
        if ((1L << Math.min(n.args().get(0).width(), 62)) <= mem.depth()) {
            return "m[" + k + "][(int) " + addr + "]";
        }
        return "MemPorts.memRead(m[" + k + "], " + addr + ", " + mem.depth() + ")";
    }

    // ------------------------------------------------------------------ statements

    /** Statement computing a slotted combinational node (null when it needs none). */
    String combStmt(Bits n) {
        if (isAlias(n) || !(nslot.containsKey(n) || wslot.containsKey(n))) {
            return null;
        }
        if (n.kind() != Kind.OP) {
            // a wire/port whose driver is an inlined expression or a narrow literal
            return local(n, ex(net.driverOf(n)));
        }
        if (!wide(n)) {
            if (n.op() == Op.SEL) {
                return selStmt(n);
            }
            if ((n.op() == Op.REM || n.op() == Op.DIV) && anyWideArg(n)) {
                return wideDivStmt(n);
            }
            return local(n, opExpr(n));
        }
        return wideStmt(n);
    }

    /** {@code final long xS = expr; v[S] = xS;} and later reads in this chunk use the local. */
    private String local(Bits n, String expr) {
        int slot = nslot.get(n);
        if (chunk == null) {
            return "v[" + slot + "] = " + expr + ";";
        }
        String name = "x" + slot;
        chunk.locals.put(slot, name);
        chunk.added.add(slot);
        computedIn.put(slot, chunkIndex);
        boolean store = !fast || mustStore.contains(slot);
        return "final long " + name + " = " + expr + ";" + (store ? " v[" + slot + "] = " + name + ";" : "");
    }

    private String selStmt(Bits n) {
        List<Bits> a = n.args();
        int cases = a.size() - 1;
        String dst = wide(n) ? null : "v[" + nslot.get(n) + "]";
        StringBuilder sb = new StringBuilder("{ long i = " + ex(a.get(0)) + "; switch (i < " + cases + "L ? (int) i : " + cases + ") {");
        for (int i = 0; i < cases; i++) {
            sb.append(" case ").append(i).append(": ")
                    .append(dst != null ? dst + " = " + ex(a.get(i + 1)) + ";" : wcopy(n, a.get(i + 1)))
                    .append(" break;");
        }
        sb.append(" default: ").append(dst != null ? dst + " = 0L;" : "Wide.zero(w, " + off(n) + ", " + n.width() + ");");
        return sb.append(" } }").toString();
    }

    private String wcopy(Bits dst, Bits src) {
        return "Wide.copy(w, " + off(dst) + ", " + dst.width() + ", w, " + off(src) + ");";
    }

    /** Operand passed to Wide as "array, offset, width". */
    private String operand(Bits x) {
        return arr(x) + ", " + off(x) + ", " + x.width();
    }

    private String wideDivStmt(Bits n) {
        Bits x = n.args().get(0);
        Bits y = n.args().get(1);
        String fn = n.op() == Op.DIV ? "div" : "rem";
        return "Wide." + fn + "(" + arr(n) + ", " + off(n) + ", " + n.width() + ", " + operand(x) + ", " + operand(y) + ", "
                + x.isSigned() + ", w, " + scratchOff + ");";
    }

    private String wideStmt(Bits n) {
        List<Bits> a = n.args();
        Bits a0 = a.isEmpty() ? null : a.get(0);
        int d = off(n);
        int w = n.width();
        String dst = "w, " + d;
        switch (n.op()) {
            case ADD: case SUB: case AND: case OR: case XOR:
                return "Wide." + n.op().name().toLowerCase() + "(" + dst + ", w, " + off(a0) + ", w, " + off(a.get(1)) + ", " + w + ");";
            case NOT: case NEG:
                return "Wide." + n.op().name().toLowerCase() + "(" + dst + ", w, " + off(a0) + ", " + w + ");";
            case MUL:
                return "Wide.mul(" + dst + ", " + w + ", " + operand(a0) + ", " + operand(a.get(1)) + ", " + a0.isSigned() + ");";
            case DIV: case REM:
                return wideDivStmt(n);
            case SHL:
                return "Wide.shl(" + dst + ", " + w + ", " + operand(a0) + ", " + n.param0() + "L);";
            case SHR:
                return "Wide.shr(" + dst + ", " + w + ", " + operand(a0) + ", " + n.param0() + "L, " + a0.isSigned() + ");";
            case DSHL:
                if (a0.isSigned() && a0.width() < w) {
                    return "Wide.extend(w, " + scratchOff + ", " + w + ", " + operand(a0) + ", true); Wide.shl(" + dst + ", " + w
                            + ", w, " + scratchOff + ", " + w + ", " + ex(a.get(1)) + ");";
                }
                return "Wide.shl(" + dst + ", " + w + ", " + operand(a0) + ", " + ex(a.get(1)) + ");";
            case DSHR:
                return "Wide.shr(" + dst + ", " + w + ", " + operand(a0) + ", " + ex(a.get(1)) + ", " + a0.isSigned() + ");";
            case SLICE:
                return "Wide.extractWide(" + dst + ", " + w + ", w, " + off(a0) + ", " + n.param1() + ");";
            case CAT: {
                StringBuilder sb = new StringBuilder("Wide.zero(" + dst + ", " + w + ");");
                int lo = w;
                for (Bits p : a) {
                    lo -= p.width();
                    sb.append(wide(p) ? " Wide.insertWide(" + dst + ", " + lo + ", w, " + off(p) + ", " + p.width() + ");"
                            : " Wide.insert(" + dst + ", " + lo + ", " + ex(p) + ", " + p.width() + ");");
                }
                return sb.toString();
            }
            case MUX:
                return "if (" + ex(a0) + " != 0L) " + wcopy(n, a.get(1)) + " else " + wcopy(n, a.get(2));
            case SEL:
                return selStmt(n);
            case EXT:
                return wide(a0) ? "Wide.extend(" + dst + ", " + w + ", w, " + off(a0) + ", " + a0.width() + ", " + a0.isSigned() + ");"
                        : "Wide.fromLong(" + dst + ", " + w + ", " + ex(a0) + ", " + a0.width() + ", " + a0.isSigned() + ");";
            case MEM_READ: {
                Mem<?> mem = n.mem();
                return "MemPorts.memReadWide(m[" + memIndex.get(mem) + "], " + ex(a0) + ", " + mem.depth() + ", " + dst + ", " + w + ");";
            }
            default:
                throw new IllegalStateException("no wide statement for " + n.op());
        }
    }

    /** Phase 1 of a clock edge for one state element: its next value into nx/nxw. */
    String nextStmt(Bits s, boolean reset) {
        int k = wide(s) ? wslot.get(s) - wideStateBase : nslot.get(s) - stateBase;
        if (s.kind() == Kind.MEM_SYNC_READ) {
            Mem<?> mem = s.mem();
            Bits addr = s.args().get(0);
            Bits en = s.args().get(1);
            if (wide(s)) {
                return "if (" + ex(en) + " != 0L) MemPorts.memReadWide(m[" + memIndex.get(mem) + "], " + ex(addr) + ", " + mem.depth()
                        + ", nxw, " + k + ", " + s.width() + "); else Wide.copy(nxw, " + k + ", " + s.width() + ", w, " + off(s) + ");";
            }
            return "nx[" + k + "] = " + ex(en) + " != 0L ? " + memRead(s, ex(addr)) + " : v[" + off(s) + "];";
        }
        Bits next = net.driverOf(s);
        Bits init = reset && !literalReset(s) ? s.resetValue() : null;
        if (wide(s)) {
            String copyNext = "Wide.copy(nxw, " + k + ", " + s.width() + ", w, " + off(next) + ");";
            return init == null ? copyNext : "if (rst) Wide.copy(nxw, " + k + ", " + s.width() + ", w, " + off(init) + "); else " + copyNext;
        }
        return "nx[" + k + "] = " + (init == null ? ex(next) : "rst ? " + ex(init) + " : " + ex(next)) + ";";
    }

    /** A register whose reset value is a constant: reset is applied at commit time, off the hot path. */
    private static boolean literalReset(Bits s) {
        return s.kind() == Kind.REG && s.resetValue() != null && s.resetValue().kind() == Kind.LIT && !wide(s);
    }

    /** Statement overriding the next value of a constant-reset register while reset is high. */
    private String resetStmt(Bits s) {
        return "nx[" + (nslot.get(s) - stateBase) + "] = " + hex(s.resetValue().litValue().longValue()) + ";";
    }

    /** Phase 2: memory writes in declaration order (a later write to the same word wins). */
    String writeStmt(Mem<?> mem, Mem.Write wr) {
        int k = memIndex.get(mem);
        if (mem.width() > 64) {
            return "if (" + ex(wr.enable()) + " != 0L) MemPorts.memWriteWide(m[" + k + "], " + ex(wr.addr()) + ", " + mem.depth()
                    + ", w, " + off(wr.data()) + ", " + mem.width() + ");";
        }
        return "if (" + ex(wr.enable()) + " != 0L) MemPorts.memWrite(m[" + k + "], " + ex(wr.addr()) + ", " + mem.depth() + ", "
                + ex(wr.data()) + ");";
    }

    /**
     * Clock-edge statement of check {@code id}: calls {@code ev.fire(id)} when its enable holds and, for
     * an assertion, its condition does not. The printed arguments stay stored for the Simulator to read.
     */
    private String checkStmt(int id, Check c) {
        for (Bits a : c.format().args()) {
            if (!wide(rep(a))) {
                mustStore.add(off(a));
            }
        }
        List<String> tests = new ArrayList<>();
        if (c.enable() != null) {
            tests.add(ex(c.enable()) + " != 0L");
        }
        if (c.condition() != null) {
            tests.add(ex(c.condition()) + " == 0L");
        }
        String fire = "ev.fire(" + id + ");";
        String stmt = tests.isEmpty() ? fire : "if (" + String.join(" && ", tests) + ") " + fire;
        return stmt + " // " + (c.isAssertion() ? "check" : "printf") + " in " + c.owner().path() + " at " + c.loc();
    }

    // ------------------------------------------------------------------ source assembly

    private static final String UNIT_HEADER =
            "package org.flitkit.hdl.sim.gen;\n\nimport org.flitkit.hdl.sim.MemPorts;\nimport org.flitkit.hdl.sim.Wide;\n\n";

    /**
     * The compilation units: the model class first, then the classes holding the chunk methods
     * (independent of each other, so they can be compiled in parallel).
     */
    List<String> generate() {
        analyse();
        allocate();
        List<Item> items = fusedOrder();
        chunk = null;
        List<String> checks = new ArrayList<>();
        for (int i = 0; i < net.checks().size(); i++) {
            checks.add(checkStmt(i, net.checks().get(i)));
        }
        List<String> commit = new ArrayList<>();
        for (Mem<?> mem : net.mems()) {
            for (Mem.Write wr : mem.writes()) {
                commit.add(writeStmt(mem, wr));
            }
        }
        List<Integer> bounds = new ArrayList<>();
        List<StringBuilder> evalBodies = emitChunks(items, bounds);
        fast = true;
        List<StringBuilder> fastBodies = emitInBounds(items, bounds);
        fast = false;
        chunk = null;
        Methods evalM = new Methods("c", "long[] v, long[] w, long[][] m, long[] nx, long[] nxw, boolean rst");
        evalM.bodies.addAll(evalBodies);
        Methods fastM = new Methods("f", "long[] v, long[] w, long[][] m, long[] nx, long[] nxw, boolean rst, long[] act");
        fastM.bodies.addAll(fastBodies);
        Methods commitM = split("t", commit, "long[] v, long[] w, long[][] m");
        Methods checkM = split("k", checks, "long[] v, long[] w, org.flitkit.hdl.sim.SimModel.Events ev");
        List<String> resets = new ArrayList<>();
        for (Bits st : state) {
            if (literalReset(st)) {
                resets.add(resetStmt(st) + comment(st));
            }
        }
        Methods resetM = split("r", resets, "long[] nx");
        StringBuilder src = new StringBuilder(UNIT_HEADER);
        src.append("/** Generated by FlitKit from ").append(net.top().definitionName()).append(". */\n");
        src.append("public final class ").append(className).append(" extends org.flitkit.hdl.sim.SimModel {\n");
        src.append("    public ").append(className).append("() {\n        super(").append(nv).append(", ").append(nw).append(", ")
                .append(stateCount).append(", ").append(wideStateCount).append(", ").append(activityWords)
                .append(", ").append(activityBase.stream().filter(b -> b >= 0).count()).append(", new int[] {");
        for (int i = 0; i < memSizes.length; i++) {
            src.append(i == 0 ? "" : ", ").append(memSizes[i]);
        }
        src.append("});\n    }\n\n");
        src.append("    public void evalComb() {\n        final long[] v = this.v, w = this.w, nx = this.nx, nxw = this.nxw;\n"
                + "        final long[][] m = this.m;\n        final boolean rst = this.reset;\n        this.act[2]++;\n");
        evalM.calls(src, "v, w, m, nx, nxw, rst");
        src.append("    }\n\n");
        src.append("    public void evalFast() {\n        final long[] v = this.v, w = this.w, nx = this.nx, nxw = this.nxw;\n"
                + "        final long[][] m = this.m;\n        final boolean rst = this.reset;\n");
        fastM.calls(src, "v, w, m, nx, nxw, rst, this.act");
        src.append("    }\n\n");
        src.append("    public void commit() {\n        final long[] v = this.v, w = this.w, nx = this.nx, nxw = this.nxw;\n"
                + "        final long[][] m = this.m;\n");
        if (!checkM.bodies.isEmpty()) {
            src.append("        if (!this.reset) {\n");
            checkM.calls(src, "v, w, this.events", "            ");
            src.append("        }\n");
        }
        commitM.calls(src, "v, w, m");
        if (!resetM.bodies.isEmpty()) {
            src.append("        if (this.reset) {\n");
            resetM.calls(src, "nx", "            ");
            src.append("        }\n");
        }
        if (stateCount > 0) {
            src.append("        System.arraycopy(nx, 0, v, ").append(stateBase).append(", ").append(stateCount).append(");\n");
        }
        if (wideStateCount > 0) {
            src.append("        System.arraycopy(nxw, 0, w, ").append(wideStateBase).append(", ").append(wideStateCount).append(");\n");
        }
        src.append("    }\n}\n");
        List<StringBuilder> units = new ArrayList<>();
        units.add(src);
        evalM.classes(units);
        fastM.classes(units);
        commitM.classes(units);
        resetM.classes(units);
        checkM.classes(units);
        List<String> out = new ArrayList<>();
        for (StringBuilder u : units) {
            out.add(u.toString());
        }
        return out;
    }

    /** A combinational node to compute, or a state element whose next value to compute. */
    private record Item(Bits node, boolean next) {
    }

    /**
     * Combinational nodes in evaluation order, with each state element's next-value statement placed
     * right after the last value it reads, so it usually lands in the same chunk and reads locals.
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
        List<Bits> allState = new ArrayList<>(state);
        allState.addAll(wideState);
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
        Bits r = rep(n);
        Integer p = pos.get(r);
        int best = -1;
        if (p != null && (nslot.containsKey(r) || wslot.containsKey(r))) {
            return p;
        }
        if (r.kind() == Kind.OP && !nslot.containsKey(r) && !wslot.containsKey(r)) {
            for (Bits a : r.args()) {
                best = Math.max(best, lastPosition(a, pos));
            }
            if (p != null) {
                best = Math.max(best, p);
            }
        }
        return best;
    }

    /** Emits items into chunk methods; an item that would overflow a method starts the next one. */
    private List<StringBuilder> emitChunks(List<Item> items, List<Integer> bounds) {
        List<StringBuilder> bodies = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        chunk = new Chunk();
        chunkIndex = 0;
        for (int idx = 0; idx < items.size(); idx++) {
            Item it = items.get(idx);
            int mark = chunk.added.size();
            String stmt = emit(it);
            if (stmt == null) {
                continue;
            }
            if (cur.length() > 0 && cur.length() + stmt.length() > METHOD_BUDGET) {
                for (int k = chunk.added.size() - 1; k >= mark; k--) {
                    chunk.locals.remove(chunk.added.remove(k));
                }
                bodies.add(cur);
                bounds.add(idx);
                cur = new StringBuilder();
                chunk = new Chunk();
                chunkIndex++;
                stmt = emit(it);
            }
            cur.append("        ").append(stmt).append('\n');
        }
        if (cur.length() > 0) {
            bodies.add(cur);
        }
        return bodies;
    }

    /** The same items in the same chunks again (the fast variant must agree on what crosses chunks). */
    private List<StringBuilder> emitInBounds(List<Item> items, List<Integer> bounds) {
        List<StringBuilder> bodies = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        chunk = new Chunk();
        chunkIndex = 0;
        int next = 0;
        for (int idx = 0; idx < items.size(); idx++) {
            if (next < bounds.size() && idx == bounds.get(next)) {
                bodies.add(withActivityCheck(cur, chunk));
                cur = new StringBuilder();
                chunk = new Chunk();
                chunkIndex++;
                next++;
            }
            String stmt = emit(items.get(idx));
            if (stmt != null) {
                cur.append("        ").append(stmt).append('\n');
            }
        }
        if (cur.length() > 0) {
            bodies.add(withActivityCheck(cur, chunk));
        }
        return bodies;
    }

    /** Chunks whose inputs are compared in {@code act} (index of the first word per chunk; -1: always runs). */
    final List<Integer> activityBase = new ArrayList<>();
    /** size of the {@code act} array: 3 control words, then per skippable chunk a stamp and its inputs */
    int activityWords = 3;
    private static final java.util.regex.Pattern UNTRACKED = java.util.regex.Pattern.compile("[( ]w,|[( ]v,|m\\[|nxw|switch \\(");

    /**
     * Activity-aware evaluation (as ESSENT does): a chunk whose inputs and reset equal what it saw last
     * time would recompute the same values, so it returns at once. Chunks touching memories or wide
     * values always run. {@code act[0]} enables skipping, {@code act[1]} counts skips, {@code act[2]} is
     * a generation that {@code evalComb} advances to invalidate every remembered input set.
     */
    private StringBuilder withActivityCheck(StringBuilder body, Chunk c) {
        String text = body.toString();
        if (c.inputs.isEmpty() || UNTRACKED.matcher(text).find()) {
            activityBase.add(-1);
            return body;
        }
        int base = activityWords;
        activityWords += 1 + c.inputs.size();
        activityBase.add(base);
        StringBuilder same = new StringBuilder("act[" + base + "] == stamp");
        StringBuilder remember = new StringBuilder("act[" + base + "] = stamp;");
        for (int k = 0; k < c.inputs.size(); k++) {
            int slot = c.inputs.get(k);
            // compared straight from the arrays: hoisting the loads would keep them all live and spill
            same.append(" && act[").append(base + 1 + k).append("] == v[").append(slot).append(']');
            remember.append(" act[").append(base + 1 + k).append("] = v[").append(slot).append("];");
        }
        StringBuilder out = new StringBuilder();
        out.append("        if (act[0] != 0L) {\n            final long stamp = (act[2] << 1) | (rst ? 1L : 0L);\n")
                .append("            if (").append(same).append(") {\n                act[1]++;\n                return;\n            }\n")
                .append("            ").append(remember).append("\n        }\n");
        return out.append(text);
    }

    private String emit(Item it) {
        chunk.preload.setLength(0);
        String s = it.next() ? nextStmt(it.node(), true) + comment(it.node()) : combStmt(it.node());
        if (s == null) {
            return null;
        }
        if (!it.next()) {
            s += comment(it.node());
        }
        return chunk.preload + s;
    }

    private static String comment(Bits n) {
        return n.name() == null ? "" : " // " + n.path();
    }

    /** Statements split into static methods, grouped into helper classes. */
    private final class Methods {
        final String prefix;
        final String params;
        final List<StringBuilder> bodies = new ArrayList<>();

        Methods(String prefix, String params) {
            this.prefix = prefix;
            this.params = params;
        }

        String owner(int i) {
            return className + "_" + prefix.toUpperCase() + (i / METHODS_PER_CLASS);
        }

        void calls(StringBuilder src, String args) {
            calls(src, args, "        ");
        }

        void calls(StringBuilder src, String args, String indent) {
            for (int i = 0; i < bodies.size(); i++) {
                src.append(indent).append(owner(i)).append('.').append(prefix).append(i).append('(').append(args).append(");\n");
            }
        }

        void classes(List<StringBuilder> units) {
            StringBuilder src = null;
            for (int i = 0; i < bodies.size(); i++) {
                if (i % METHODS_PER_CLASS == 0) {
                    src = new StringBuilder(UNIT_HEADER);
                    units.add(src);
                    src.append("public final class ").append(owner(i)).append(" {\n");
                }
                src.append("    public static void ").append(prefix).append(i).append('(').append(params).append(") {\n")
                        .append(bodies.get(i)).append("    }\n");
                if (i % METHODS_PER_CLASS == METHODS_PER_CLASS - 1 || i == bodies.size() - 1) {
                    src.append("}\n");
                }
            }
        }
    }

    private Methods split(String prefix, List<String> stmts, String params) {
        Methods ms = new Methods(prefix, params);
        StringBuilder cur = null;
        for (String s : stmts) {
            if (cur == null || cur.length() + s.length() > METHOD_BUDGET) {
                cur = new StringBuilder();
                ms.bodies.add(cur);
            }
            cur.append("        ").append(s).append('\n');
        }
        return ms;
    }
}
