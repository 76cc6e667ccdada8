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

import static org.flitkit.hdl.sim.SourceText.*;

import org.flitkit.hdl.sim.Schedule.Item;

/**
 * Turns a {@link Netlist} into Java source for a {@link SimModel}. Signals up to 64 bits live in
 * {@code v[]}, wider ones in {@code w[]}; wires share the slot of their driver; single-use narrow
 * expressions are inlined into their user; state sits in one contiguous block so the clock edge
 * commits with one arraycopy. Statements are split into static methods small enough for the JIT.
 */
final class CodeGen {

    final Netlist net;
    final String className;
    /** the slot layout pass: where every value lives */
    private final SlotLayout layout;

    CodeGen(Netlist net, String className) {
        this.net = net;
        this.className = className;
        this.layout = new SlotLayout(net);
    }


    // ------------------------------------------------------------------ expressions


    private static String mask(String e, int w) {
        return w >= 64 ? "(" + e + ")" : "((" + e + ") & " + hex(maskOf(w)) + ")";
    }

    private static String sext(String e, int w) {
        return w >= 64 ? e : "((" + e + " << " + (64 - w) + ") >> " + (64 - w) + ")";
    }

    /** Java array holding n (after aliasing): "v" or "w". */
    private String arr(Bits n) {
        return wide(layout.rep(n)) ? "w" : "v";
    }

    /** Index of n's storage in its array. */
    int off(Bits n) {
        Bits r = layout.rep(n);
        int s = layout.slot(r);
        if (chunk != null) {
            read(wide(r), s);
        }
        return s;
    }

    /** Java expression (long) for a narrow node. */
    String ex(Bits n) {
        Bits r = layout.rep(n);
        if (r.kind() == Kind.LIT) {
            return hex(r.litValue().longValue());
        }
        String k = known.get(r);
        if (k != null) {
            return k;
        }
        if (layout.nslot.containsKey(r)) {
            return slotRead(layout.nslot.get(r));
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
            counterReadAtEdge |= counterSlots.contains(slot);
            return "v[" + slot + "]";
        }
        read(false, slot);
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
        }
        return name;
    }

    /** Records a read of a slot by the chunk being emitted, with the innermost arm around it. */
    private void read(boolean isWide, int slot) {
        chunk.reads.add(new int[] {isWide ? 1 : 0, slot, guards.isEmpty() ? -1 : guardKey(guards.peek())});
    }

    /** Locals of the chunk method being emitted, and loads the next statement needs first. */
    private static final class Chunk {
        final Map<Integer, String> locals = new java.util.HashMap<>();
        final List<Integer> added = new ArrayList<>();
        final StringBuilder preload = new StringBuilder();
        /**
         * every read of a narrow or wide slot by the chunk's statements (its own results included), as
         * {1 if wide, slot, {@link #guardKey} of the mux arm it sits in}; and every memory read
         */
        final List<int[]> reads = new ArrayList<>();
        final List<Integer> memReads = new ArrayList<>();
        final List<Integer> wProduced = new ArrayList<>();
        /** module instances whose logic the chunk holds, in order, and its source size */
        final java.util.LinkedHashSet<String> owners = new java.util.LinkedHashSet<>();
        int chars;
        /** fast variant: some value stayed in a local, so the stored one is stale */
        boolean unstored;
    }

    private Chunk chunk;
    private int chunkIndex;
    /** chunks whose fast variant keeps some value in locals only, so that a run of it leaves them stale */
    private final java.util.BitSet fastUnstored = new java.util.BitSet();
    /** chunk that computes each comb slot */
    private final Map<Integer, Integer> computedIn = new java.util.HashMap<>();
    /** comb slots read outside the chunk that computes them (other chunks, commit): the fast variant stores only these */
    private java.util.Set<Integer> mustStore = new java.util.HashSet<>();
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
            case AND: return and(ex(a0), ex(a.get(1)));
            case OR: case XOR: return orXor(n.op() == Op.OR ? " | " : " ^ ", ex(a0), ex(a.get(1)));
            case NOT: {
                String x = ex(a0);
                if (isLit(x)) {
                    return hex(~lit(x) & maskOf(w));
                }
                return w >= 64 ? "(~" + x + ")" : "(" + x + " ^ " + hex(maskOf(w)) + ")";
            }
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
            case XORR:
                if (layout.fusedParity.contains(a0)) {
                    Bits x = a0.args().get(0);
                    Bits y = a0.args().get(1);
                    return bool("Wide.andParity(w, " + off(x) + ", w, " + off(y) + ", " + a0.width() + ")");
                }
                return wide(a0) ? bool("Wide.xorReduce(w, " + off(a0) + ", " + a0.width() + ")")
                    : "(long) (Long.bitCount(" + ex(a0) + ") & 1)";
            case SLICE:
                if (wide(a0)) {
                    return extract(a0, n.param1(), w);
                }
                return n.param1() == 0 ? mask(ex(a0), w) : mask(ex(a0) + " >>> " + n.param1(), w);
            case CAT: {
                String table = linearCat(n);
                if (table != null) {
                    return table;
                }
                StringBuilder sb = new StringBuilder("(");
                int lo = w;
                for (int i = 0; i < a.size(); i++) {
                    Bits p = a.get(i);
                    lo -= p.width();
                    sb.append(i == 0 ? "" : " | ").append(lo == 0 ? ex(p) : "(" + ex(p) + " << " + lo + ")");
                }
                return sb.append(")").toString();
            }
            case MUX: {
                String c = ex(a0);
                String x;
                String y;
                if (c.equals(ONE) || c.equals(ZERO)) {
                    x = c.equals(ONE) ? ex(a.get(1)) : ZERO;
                    y = c.equals(ZERO) ? ex(a.get(2)) : ZERO;
                } else {
                    // the select is 1 wherever the first arm counts and 0 wherever the second does: nested
                    // when/otherwise chains test the same conditions again, and those tests fold away
                    Bits sel = layout.rep(a0);
                    String before = known.put(sel, ONE);
                    x = inArm(a0, c, true, () -> ex(a.get(1)));
                    known.put(sel, ZERO);
                    y = inArm(a0, c, false, () -> ex(a.get(2)));
                    if (before == null) {
                        known.remove(sel);
                    } else {
                        known.put(sel, before);
                    }
                }
                return w == 1 ? mux1(c, x, y) : mux(c, x, y);
            }
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
        // constant selects (tied-off enables, unrolled loops) choose at generation time
        if (c.equals(ONE)) {
            return a;
        }
        if (c.equals(ZERO)) {
            return b;
        }
        if (a.equals(b)) {
            return a;
        }
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

    /**
     * A two-way select of 1-bit values (every narrow value is kept masked, so the arms are 0 or 1):
     * a constant arm turns it into an AND or OR, equal arms need no select.
     */
    static String mux1(String c, String a, String b) {
        // constant selects, equal arms and a zero first arm: mux folds them already
        if (c.equals(ONE) || c.equals(ZERO) || a.equals(b) || a.equals(ZERO)) {
            return mux(c, a, b);
        }
        if (b.equals(ZERO)) {
            return "(" + a + " & " + c + ")";
        }
        if (a.equals(ONE)) {
            return "(" + c + " | " + b + ")";
        }
        if (b.equals(ONE)) {
            return "(" + a + " | (" + c + " ^ 0x1L))";
        }
        return mux(c, a, b);
    }

    /** Values of 1-bit mux selects inside the arm being generated: 1 in the first arm, 0 in the second. */
    private final Map<Bits, String> known = new IdentityHashMap<>();

    private static final String ZERO = "0x0L";
    private static final String ONE = "0x1L";

    /** {@code a & b}, folded when an operand is the constant 0 or both are constants. */
    private static String and(String a, String b) {
        if (isLit(a) && isLit(b)) {
            return hex(lit(a) & lit(b));
        }
        return a.equals(ZERO) || b.equals(ZERO) ? ZERO : "(" + a + " & " + b + ")";
    }

    /** {@code a | b} or {@code a ^ b}, folded when an operand is the constant 0 (OR and XOR with 0 are the identity) or both are constants. */
    private static String orXor(String op, String a, String b) {
        if (isLit(a) && isLit(b)) {
            return hex(op.equals(" | ") ? lit(a) | lit(b) : lit(a) ^ lit(b));
        }
        if (a.equals(ZERO)) {
            return b;
        }
        return b.equals(ZERO) ? a : "(" + a + op + b + ")";
    }

    private static final java.util.regex.Pattern LIT = java.util.regex.Pattern.compile("0x[0-9a-f]{1,16}L");

    /** Whether a generated expression is a constant (as {@link #hex} writes them). */
    private static boolean isLit(String e) {
        return e.length() <= 19 && LIT.matcher(e).matches();
    }

    private static long lit(String e) {
        return Long.parseUnsignedLong(e.substring(2, e.length() - 1), 16);
    }
    private static final java.util.regex.Pattern ATOMIC = java.util.regex.Pattern.compile("v\\[\\d+\\]|x\\d+|0x[0-9a-f]+L");

    private static boolean atomic(String e) {
        return e.length() < 24 && ATOMIC.matcher(e).matches();
    }

    private String shrStatic(Bits n, Bits a0) {
        int p = n.param0();
        int aw = a0.width();
        if (wide(a0)) {
            int lo = Math.min(p, aw - 1);
            return extract(a0, lo, n.width());
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

    /** Index of a memory in {@code m}, recorded as read by the chunk being emitted. */
    private int memRef(Mem<?> mem) {
        int k = layout.memIndex.get(mem);
        if (chunk != null) {
            chunk.memReads.add(k);
        }
        return k;
    }

    private String memRead(Bits n, String addr) {
        Mem<?> mem = n.mem();
        int k = memRef(mem);
        if ((1L << Math.min(n.args().get(0).width(), 62)) <= mem.depth()) {
            return "m[" + k + "][(int) " + addr + "]";
        }
        return "MemPorts.memRead(m[" + k + "], " + addr + ", " + mem.depth() + ")";
    }

    // ------------------------------------------------------------------ statements

    /** Statement computing a slotted combinational node (null when it needs none). */
    String combStmt(Bits n) {
        if (layout.isAlias(n) || !(layout.nslot.containsKey(n) || layout.wslot.containsKey(n))) {
            return null;
        }
        if (n.kind() != Kind.OP) {
            // a wire/port whose driver is an inlined expression or a narrow literal
            return local(n, ex(net.driverOf(n)));
        }
        if (!wide(n)) {
            if (n.op() == Op.SEL) {
                return watchNarrow(n, selStmt(n));
            }
            if ((n.op() == Op.REM || n.op() == Op.DIV) && SlotLayout.anyWideArg(n)) {
                return watchNarrow(n, wideDivStmt(n));
            }
            return local(n, opExpr(n));
        }
        String stmt = wideStmt(n);
        int off = layout.wslot.get(n);
        if (chunk != null) {
            chunk.wProduced.add(off);
        }
        String flags = flagging ? activity.combWake(true, off) : "";
        if (flags.isEmpty()) {
            return stmt;
        }
        // a wide value read by other chunks wakes them only when it changed: compared with its last value
        return stmt + " if (Wide.changed(w, " + off + ", " + activity.shadowOf(off) + ", " + limbs(n.width()) + ")) { " + flags + " }";
    }

    /** A statement that writes narrow slot of n in place, followed by waking n's readers when it changed. */
    private String watchNarrow(Bits n, String stmt) {
        int slot = layout.nslot.get(n);
        String flags = flagging ? activity.combWake(false, slot) : "";
        if (chunk != null) {
            computedIn.put(slot, chunkIndex);
        }
        return flags.isEmpty() ? stmt : "{ final long o = v[" + slot + "]; " + stmt + " if (v[" + slot + "] != o) { " + flags + " } }";
    }

    /** {@code final long xS = expr; v[S] = xS;} and later reads in this chunk use the local. */
    private String local(Bits n, String expr) {
        int slot = layout.nslot.get(n);
        if (chunk == null) {
            return "v[" + slot + "] = " + expr + ";";
        }
        String name = "x" + slot;
        chunk.locals.put(slot, name);
        chunk.added.add(slot);
        computedIn.put(slot, chunkIndex);
        boolean store = !fast || mustStore.contains(slot);
        String flags = flagging ? activity.combWake(false, slot) : "";
        if (!store) {
            chunk.unstored = true;
        }
        String def = "final long " + name + " = " + expr + ";";
        if (!flags.isEmpty()) {
            // read by later chunks: they run again only if this value changed
            return def + " if (v[" + slot + "] != " + name + ") { v[" + slot + "] = " + name + "; " + flags + " }";
        }
        return def + (store ? " v[" + slot + "] = " + name + ";" : "");
    }

    private String selStmt(Bits n) {
        List<Bits> a = n.args();
        int cases = a.size() - 1;
        String dst = wide(n) ? null : "v[" + layout.nslot.get(n) + "]";
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
        return limbBlock("w", off(dst), dst.width(), src);
    }

    /**
     * {@code d[doff..]} = the {@code width}-bit value {@code src}: a copy of its storage, or, for a value
     * computed in place (see {@link #findLimbInlined}), a select as if/else on its condition and anything
     * else as one statement per limb.
     */
    private String limbBlock(String d, int doff, int width, Bits src) {
        return selectChain(src, r -> layout.limbInlined.contains(r) ? expandInto(d, doff, r) : copy(d, doff, width, "w", off(r)));
    }

    /**
     * A select computed in place (see {@link #findLimbInlined}) as if/else on its condition, recursively,
     * with {@code leaf} writing every other value.
     */
    private String selectChain(Bits src, java.util.function.Function<Bits, String> leaf) {
        Bits r = layout.rep(src);
        if (layout.limbInlined.contains(r) && r.op() == Op.MUX) {
            Bits sel = r.args().get(0);
            String c = ex(sel);
            String x = inArm(sel, c, true, () -> selectChain(r.args().get(1), leaf));
            String y = inArm(sel, c, false, () -> selectChain(r.args().get(2), leaf));
            return "if (" + c + " != 0L) " + x + " else " + y;
        }
        return leaf.apply(r);
    }

    /** {@code d[doff..]} = the limb-local operation {@code n}, one statement per limb. */
    private String expandInto(String d, int doff, Bits n) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < limbs(n.width()); i++) {
            sb.append(' ').append(d).append('[').append(doff + i).append("] = ").append(expand(n, i)).append(';');
        }
        return sb.append(" }").toString();
    }

    /** Java expression for limb {@code i} of wide {@code n}: its storage, or its operation for a value computed in place. */
    private String limb(Bits n, int i) {
        Bits r = layout.rep(n);
        if (i >= limbs(r.width())) {
            // above the value's width (a pad reading a narrower value computed in place): zero, whatever its operands hold there
            return "0L";
        }
        return layout.limbInlined.contains(r) ? expand(r, i) : "w[" + (off(r) + i) + "]";
    }

    /** Limb {@code i} of {@code n}, a limb-local operation (see {@link #limbLocal}) or a shift of a stored value, from its operands' limbs. */
    private String expand(Bits n, int i) {
        List<Bits> a = n.args();
        switch (n.op()) {
            case MUX: {
                String c = ex(a.get(0));
                String x = inArm(a.get(0), c, true, () -> limb(a.get(1), i));
                String y = inArm(a.get(0), c, false, () -> limb(a.get(2), i));
                return "(" + c + " != 0L ? " + x + " : " + y + ")";
            }
            case EXT:
                return limb(a.get(0), i);
            case SLICE:
            case SHR: {
                int lo = n.op() == Op.SLICE ? n.param1() : Math.min(n.param0(), a.get(0).width());
                String e = bitsFrom(a.get(0), lo + 64 * i, 64);
                boolean top = i == limbs(n.width()) - 1 && (n.width() & 63) != 0;
                return top && !e.equals("0L") ? "(" + e + " & " + hex(maskOf(n.width() & 63)) + ")" : e;
            }
            default:
                throw new IllegalStateException("not limb-local: " + n.op());
        }
    }

    /**
     * {@link Wide#extract} with its constant arguments applied at generation time (the same limbs, shifts
     * and mask): in a large chunk HotSpot stops inlining calls, and a call per field read is costly.
     */
    private String extract(Bits a, int lo, int width) {
        String v = bitsFrom(a, lo, width);
        return width >= 64 ? v : "(" + v + " & " + hex(maskOf(width)) + ")";
    }

    /**
     * Bits {@code lo} up of wide {@code a}, at least {@code bits} of them up to 64, not masked: a limb, or
     * two limbs shifted together where the bits cross a limb boundary; 0 past the width of {@code a}.
     */
    private String bitsFrom(Bits a, int lo, int bits) {
        int l = lo >>> 6;
        int b = lo & 63;
        int n = limbs(a.width());
        if (l >= n) {
            return "0L";
        }
        String v = b == 0 ? limb(a, l) : "(" + limb(a, l) + " >>> " + b + ")";
        return b + bits > 64 && l + 1 < n ? "(" + v + " | (" + limb(a, l + 1) + " << " + (64 - b) + "))" : v;
    }

    /** {@link Wide#copy} as one statement per limb up to {@link #UNROLL_LIMBS} limbs (a block, usable after if/else). */
    private static String copy(String d, int doff, int width, String a, int aoff) {
        int n = limbs(width);
        if (n > UNROLL_LIMBS) {
            return "Wide.copy(" + d + ", " + doff + ", " + width + ", " + a + ", " + aoff + ");";
        }
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < n; i++) {
            sb.append(' ').append(d).append('[').append(doff + i).append("] = ").append(a).append('[').append(aoff + i).append("];");
        }
        return sb.append(" }").toString();
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
                + x.isSigned() + ", w, " + layout.scratchOff + ");";
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
                if (wide(a0) && !a0.isSigned() && limbs(w) <= UNROLL_LIMBS) {
                    return shiftLeftCopy(d, w, off(a0), a0.width(), n.param0());
                }
                return "Wide.shl(" + dst + ", " + w + ", " + operand(a0) + ", " + n.param0() + "L);";
            case SHR:
                if (wide(a0) && !a0.isSigned() && limbs(w) <= UNROLL_LIMBS) {
                    return shiftRightCopy(d, w, a0, Math.min(n.param0(), a0.width()));
                }
                return "Wide.shr(" + dst + ", " + w + ", " + operand(a0) + ", " + n.param0() + "L, " + a0.isSigned() + ");";
            case DSHL:
                if (a0.isSigned() && a0.width() < w) {
                    return "Wide.extend(w, " + layout.scratchOff + ", " + w + ", " + operand(a0) + ", true); Wide.shl(" + dst + ", " + w
                            + ", w, " + layout.scratchOff + ", " + w + ", " + ex(a.get(1)) + ");";
                }
                return "Wide.shl(" + dst + ", " + w + ", " + operand(a0) + ", " + ex(a.get(1)) + ");";
            case DSHR:
                return "Wide.shr(" + dst + ", " + w + ", " + operand(a0) + ", " + ex(a.get(1)) + ", " + a0.isSigned() + ");";
            case SLICE:
                if (SlotLayout.limbLocal(n)) {
                    return expandInto("w", d, n);
                }
                if (limbs(w) <= UNROLL_LIMBS) {
                    return shiftRightCopy(d, w, a0, n.param1());
                }
                return "Wide.extractWide(" + dst + ", " + w + ", w, " + off(a0) + ", " + n.param1() + ");";
            case CAT: {
                if (limbs(w) <= UNROLL_LIMBS) {
                    return catLimbs(n, d);
                }
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
                if (SlotLayout.limbLocal(n)) {
                    return expandInto("w", d, n);
                }
                if (!a0.isSigned() && limbs(w) <= UNROLL_LIMBS) {
                    return wide(a0) ? shiftRightCopy(d, w, a0, 0) : catLimbs(n, d);
                }
                return wide(a0) ? "Wide.extend(" + dst + ", " + w + ", w, " + off(a0) + ", " + a0.width() + ", " + a0.isSigned() + ");"
                        : "Wide.fromLong(" + dst + ", " + w + ", " + ex(a0) + ", " + a0.width() + ", " + a0.isSigned() + ");";
            case MEM_READ: {
                Mem<?> mem = n.mem();
                return "MemPorts.memReadWide(m[" + memRef(mem) + "], " + ex(a0) + ", " + mem.depth() + ", " + dst + ", " + w + ");";
            }
            default:
                throw new IllegalStateException("no wide statement for " + n.op());
        }
    }

    /** Concatenations of at least this many parity bits of one wide value are computed by a table (see {@link #linearCat}). */
    static final int LINEAR_MIN_BITS = 8;

    /**
     * A concatenation of up to 32 parities of masked copies of one wide value, each maybe inverted (the
     * equations of a parallel CRC), as one {@link LinearMaps#apply} lookup per input byte: the table holds the
     * output bits each input byte flips. Null when {@code n} is not of that form, or a part is also used
     * elsewhere (then it has its own statement).
     */
    private String linearCat(Bits n) {
        List<Bits> parts = n.args();
        if (n.width() > 32 || parts.size() < LINEAR_MIN_BITS) {
            return null;
        }
        Bits x = null;
        long inverted = 0L;
        BigInteger[] masks = new BigInteger[parts.size()];
        for (int i = 0; i < parts.size(); i++) {
            int bit = parts.size() - 1 - i;
            Bits q = parts.get(i);
            if (q.width() != 1) {
                return null;
            }
            while (q.kind() == Kind.OP && (q.op() == Op.NOT || q.op() == Op.XOR || q.op() == Op.AS_UINT || q.op() == Op.AS_SINT)
                    && !layout.slotted(q)) {
                if (q.op() == Op.AS_UINT || q.op() == Op.AS_SINT) {
                    q = q.args().get(0);
                } else if (q.op() == Op.NOT) {
                    inverted ^= 1L << bit;
                    q = q.args().get(0);
                } else if (layout.rep(q.args().get(1)).kind() == Kind.LIT) {
                    inverted ^= layout.rep(q.args().get(1)).litValue().longValue() << bit;
                    q = q.args().get(0);
                } else if (layout.rep(q.args().get(0)).kind() == Kind.LIT) {
                    inverted ^= layout.rep(q.args().get(0)).litValue().longValue() << bit;
                    q = q.args().get(1);
                } else {
                    return null;
                }
            }
            if (q.kind() != Kind.OP || q.op() != Op.XORR || layout.slotted(q) || !layout.fusedParity.contains(q.args().get(0))) {
                return null;
            }
            Bits and = q.args().get(0);
            Bits a0 = layout.rep(and.args().get(0));
            Bits a1 = layout.rep(and.args().get(1));
            Bits data = a1.kind() == Kind.LIT ? a0 : a1;
            Bits mask = a1.kind() == Kind.LIT ? a1 : a0;
            if (mask.kind() != Kind.LIT || data.kind() == Kind.LIT || x != null && data != x) {
                return null;
            }
            x = data;
            masks[bit] = mask.litValue();
        }
        Bits data = x;
        // ex() meets the same concatenation once per variant and pass: the table is built once
        int id = linearIds.computeIfAbsent(n, k -> LinearMaps.register(linearTable(data, masks)));
        String e = "LinearMaps.apply(w, " + off(x) + ", " + id + ", " + limbs(x.width()) + ")";
        return inverted == 0L ? e : "(" + e + " ^ " + hex(inverted) + ")";
    }

    private final Map<Bits, Integer> linearIds = new IdentityHashMap<>();

    /** The table of {@link LinearMaps} for output bits {@code k} = parity of {@code x & masks[k]}. */
    private static int[] linearTable(Bits x, BigInteger[] masks) {
        int[] table = new int[limbs(x.width()) * 2048];
        for (int j = 0; j < x.width(); j++) {
            int column = 0;
            for (int k = 0; k < masks.length; k++) {
                column |= masks[k].testBit(j) ? 1 << k : 0;
            }
            if (column != 0) {
                // input bit j is bit (j & 7) of byte j >>> 3: every byte value with that bit set flips the column
                int base = (j >>> 3) * 256;
                for (int v = 0; v < 256; v++) {
                    if ((v >>> (j & 7) & 1) != 0) {
                        table[base + v] ^= column;
                    }
                }
            }
        }
        return table;
    }

    /** Wide values up to this many limbs are moved by generated limb statements instead of Wide's loops. */
    static final int UNROLL_LIMBS = 16;

    /** {@code w[d..] = (a >>> lo)} truncated to {@code dw} bits; limbs past the width of {@code a} read as 0. */
    private String shiftRightCopy(int d, int dw, Bits a, int lo) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < limbs(dw); i++) {
            limbStore(sb, d, dw, i, bitsFrom(a, lo + 64 * i, 64));
        }
        return sb.toString();
    }

    /** {@code w[d..] = w[src..] << amount}, {@code dw} bits. */
    private String shiftLeftCopy(int d, int dw, int src, int sw, int amount) {
        int ns = limbs(sw);
        int ls = amount >>> 6;
        int bs = amount & 63;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < limbs(dw); i++) {
            int k = i - ls;
            List<String> terms = new ArrayList<>();
            if (k >= 0 && k < ns) {
                terms.add(bs == 0 ? "w[" + (src + k) + "]" : "(w[" + (src + k) + "] << " + bs + ")");
            }
            if (bs != 0 && k >= 1 && k - 1 < ns) {
                terms.add("(w[" + (src + k - 1) + "] >>> " + (64 - bs) + ")");
            }
            limbStore(sb, d, dw, i, terms.isEmpty() ? "0L" : String.join(" | ", terms));
        }
        return sb.toString();
    }

    /** {@code w[d+i] = e;}, masking the top limb of a {@code dw}-bit value. */
    private static void limbStore(StringBuilder sb, int d, int dw, int i, String e) {
        boolean top = i == limbs(dw) - 1 && (dw & 63) != 0;
        sb.append(sb.length() == 0 ? "" : " ").append("w[").append(d + i).append("] = ")
                .append(top && !e.equals("0L") ? "(" + e + ") & " + hex(maskOf(dw & 63)) : e).append(';');
    }

    /**
     * A concatenation (or zero-extension of a narrow value) computed limb by limb: each destination limb
     * is the OR of the shifted pieces that overlap it. Narrow pieces are evaluated once, into locals.
     */
    private String catLimbs(Bits n, int d) {
        int dw = n.width();
        List<Bits> parts = n.op() == Op.CAT ? n.args() : List.of(n.args().get(0));
        List<List<String>> terms = new ArrayList<>();
        for (int i = 0; i < limbs(dw); i++) {
            terms.add(new ArrayList<>());
        }
        StringBuilder pre = new StringBuilder();
        int lo = n.op() == Op.CAT ? dw : 0;
        int k = 0;
        for (Bits p : parts) {
            if (n.op() == Op.CAT) {
                lo -= p.width();
            }
            int l = lo >>> 6;
            int b = lo & 63;
            if (wide(p)) {
                for (int j = 0; j < limbs(p.width()); j++) {
                    String v = limb(p, j);
                    if (l + j < terms.size()) {
                        terms.get(l + j).add(b == 0 ? v : "(" + v + " << " + b + ")");
                    }
                    if (b != 0 && 64 * j + 64 - b < p.width() && l + j + 1 < terms.size()) {
                        terms.get(l + j + 1).add("(" + v + " >>> " + (64 - b) + ")");
                    }
                }
            } else {
                String x = ex(p);
                if (x.equals(ZERO)) {
                    continue;
                }
                if (b + p.width() > 64 && !atomic(x)) {
                    String t = "p" + k++;
                    pre.append("final long ").append(t).append(" = ").append(x).append("; ");
                    x = t;
                }
                terms.get(l).add(b == 0 ? x : "(" + x + " << " + b + ")");
                if (b + p.width() > 64 && l + 1 < terms.size()) {
                    terms.get(l + 1).add("(" + x + " >>> " + (64 - b) + ")");
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < terms.size(); i++) {
            limbStore(sb, d, dw, i, terms.get(i).isEmpty() ? "0L" : String.join(" | ", terms.get(i)));
        }
        return pre.length() == 0 ? sb.toString() : "{ " + pre + sb + " }";
    }

    /**
     * Phase 1 of a clock edge for one state element: its next value into nx/nxw; when it differs from
     * the current value, the chunks that read the element are woken for the next cycle.
     */
    String nextStmt(Bits s, boolean reset) {
        boolean w = wide(s);
        int slot = w ? layout.wslot.get(s) : layout.nslot.get(s);
        int k = slot - (w ? layout.wideStateBase : layout.stateBase);
        String flags = flagging ? activity.nextWake(w, slot) : "";
        String stmt;
        if (s.kind() == Kind.MEM_SYNC_READ) {
            Mem<?> mem = s.mem();
            Bits addr = s.args().get(0);
            Bits en = s.args().get(1);
            if (w) {
                stmt = "if (" + ex(en) + " != 0L) MemPorts.memReadWide(m[" + memRef(mem) + "], " + ex(addr) + ", " + mem.depth()
                        + ", nxw, " + k + ", " + s.width() + "); else " + copy("nxw", k, s.width(), "w", slot);
            } else {
                stmt = "nx[" + k + "] = " + ex(en) + " != 0L ? " + memRead(s, ex(addr)) + " : v[" + slot + "];";
            }
        } else {
            Bits next = net.driverOf(s);
            Bits init = reset && !literalReset(s) ? s.resetValue() : null;
            if (w && !flags.isEmpty()) {
                String watch = "if (!Wide.eq(nxw, " + k + ", w, " + slot + ", " + s.width() + ")) { " + flags + " }";
                String watched = watchedNext(k, s, next, watch);
                return init == null ? watched
                        : "if (rst) { " + limbBlock("nxw", k, s.width(), init) + " " + watch + " } else " + watched;
            }
            if (w) {
                String copyNext = limbBlock("nxw", k, s.width(), next);
                stmt = init == null ? copyNext
                        : "if (rst) " + limbBlock("nxw", k, s.width(), init) + " else " + copyNext;
            } else {
                String value = init == null ? ex(next) : "rst ? " + ex(init) + " : " + ex(next);
                if (!flags.isEmpty()) {
                    // compared in registers: after a store to nx, HotSpot would reload both arrays
                    String now = chunk != null && chunk.locals.containsKey(slot) ? chunk.locals.get(slot) : "v[" + slot + "]";
                    return "{ final long n = " + value + "; nx[" + k + "] = n; if (n != " + now + ") { " + flags + " } }";
                }
                stmt = "nx[" + k + "] = " + value + ";";
            }
        }
        if (flags.isEmpty()) {
            return stmt;
        }
        String changed = w ? "!Wide.eq(nxw, " + k + ", w, " + slot + ", " + s.width() + ")" : "nx[" + k + "] != v[" + slot + "]";
        return stmt + " if (" + changed + ") { " + flags + " }";
    }

    /**
     * The next value of wide register {@code s} from {@code src}, comparing it with the current value only
     * in the arms of a select chain that can change it: an arm that holds the register copies it and
     * cannot differ, and holding is what most registers of packets do in most cycles. The fast variant's
     * arm that holds stores nothing: its evaluation is the only one between two clock edges, and each edge
     * leaves the next state equal to the state (the storing variant may run several times in a cycle, as
     * pokes come in, and an earlier run may have left another next value).
     */
    private String watchedNext(int k, Bits s, Bits src, String watch) {
        return selectChain(src, r -> r != s ? "{ " + limbBlock("nxw", k, s.width(), r) + " " + watch + " }"
                : fast ? "{ }" : limbBlock("nxw", k, s.width(), r));
    }

    /** A register whose reset value is a constant: reset is applied at commit time, off the hot path. */
    private static boolean literalReset(Bits s) {
        return s.kind() == Kind.REG && s.resetValue() != null && s.resetValue().kind() == Kind.LIT && !wide(s);
    }

    /** Statement overriding the next value of a constant-reset register while reset is high. */
    private String resetStmt(Bits s) {
        return "nx[" + (layout.nslot.get(s) - layout.stateBase) + "] = " + hex(s.resetValue().litValue().longValue()) + ";";
    }

    /** Phase 2: memory writes in declaration order (a later write to the same word wins). */
    String writeStmt(Mem<?> mem, Mem.Write wr, boolean wake) {
        int k = layout.memIndex.get(mem);
        String write = mem.width() > 64
                ? "MemPorts.memWriteWide(m[" + k + "], " + ex(wr.addr()) + ", " + mem.depth() + ", w, " + off(wr.data()) + ", "
                        + mem.width() + ");"
                : "MemPorts.memWrite(m[" + k + "], " + ex(wr.addr()) + ", " + mem.depth() + ", " + ex(wr.data()) + ");";
        return "if (" + ex(wr.enable()) + " != 0L) { " + write + (wake ? " " + activity.memWake(k) : "") + " }";
    }

    /**
     * Clock-edge statement of check {@code id}: calls {@code ev.fire(id)} when its enable holds and, for
     * an assertion, its condition does not. The printed arguments stay stored for the Simulator to read.
     */
    private String checkStmt(int id, Check c) {
        for (Bits a : c.format().args()) {
            if (!wide(layout.rep(a))) {
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


    /**
     * The generated source as three programs. Each is a list of compilation units: the class with the
     * entry points first, then the classes holding its chunk methods (independent of each other, so
     * they can be compiled in parallel). The model program is all a simulator needs; the fast and plain
     * variants ({@link SimModel.Variant}) are compiled against it later, when first wanted.
     */
    record Programs(List<String> model, List<String> fast, List<String> plain) {
        List<String> all() {
            List<String> units = new ArrayList<>(model);
            units.addAll(fast);
            units.addAll(plain);
            return units;
        }
    }

    /** A small unit shaped like generated code (the same imports, array reads, a wake-up), for {@code SimCompiler}'s warm-up. */
    static String warmUpUnit() {
        return UNIT_HEADER + "public final class WarmUp {\n    public static void c0(long[] v, long[] w, long[][] m, long[] nx, long[] nxw, boolean rst, long[] act) {\n"
                + "        final long x1 = v[1]; final long x2 = (x1 ^ 0x3L) & v[2]; if (v[3] != x2) { v[3] = x2; act[4] |= 0x10L; }\n"
                + "        if (!Wide.eq(nxw, 0, w, 0, 128)) { act[5] |= 0x1L; } nx[0] = LinearMaps.apply(w, 0, 0, 0); MemPorts.memWrite(m[0], 0L, 1, 0L);\n"
                + "    }\n}\n";
    }

    /** The variants' entry classes are named after the model class with these suffixes. */
    static final String FAST = "_Fast";
    static final String PLAIN = "_Plain";

    /** The generated source and what the simulator needs to know of it. */
    record Output(Programs programs, SimPlan plan) {
    }

    Output generate() {
        for (Bits c : layout.counters) {
            counterSlots.add(layout.nslot.get(c));
        }
        Schedule schedule = new Schedule(net, layout);
        List<Item> items = schedule.clustered;
        // pass 1 cuts the chunks and records what each reads; then every stored value knows its readers
        List<Integer> bounds = new ArrayList<>();
        List<Chunk> plain = new ArrayList<>();
        emitChunks(items, bounds, plain, true, schedule.constantItems);
        List<ActivityPlan.ChunkUse> uses = new ArrayList<>();
        for (Chunk c : plain) {
            uses.add(new ActivityPlan.ChunkUse(c.reads, c.memReads, c.wProduced, new ArrayList<>(c.owners), c.chars));
        }
        activity = new ActivityPlan(net, layout, uses, computedIn, counterSlots);
        mustStore.addAll(activity.storedSelects);
        // the plain variant (no flags, chunks cut by size only) for cycles where most logic is busy; its
        // chunks cross at other places, so it keeps its own set of values to store
        java.util.Set<Integer> flaggedStores = mustStore;
        mustStore = new java.util.HashSet<>();
        List<Integer> plainBounds = new ArrayList<>();
        List<Item> plainItems = schedule.fused;
        emitChunks(plainItems, plainBounds, new ArrayList<>(), false, 0);
        java.util.Set<Integer> plainStores = mustStore;
        // what the clock edge reads is stored by every variant
        mustStore = new java.util.HashSet<>();
        chunk = null;
        List<String> checks = new ArrayList<>();
        for (int i = 0; i < net.checks().size(); i++) {
            checks.add(checkStmt(i, net.checks().get(i)));
        }
        List<String> commit = new ArrayList<>(activity.guardedWakes());
        List<String> commitPlain = new ArrayList<>();
        for (Mem<?> mem : net.mems()) {
            for (Mem.Write wr : mem.writes()) {
                commit.add(writeStmt(mem, wr, true));
                commitPlain.add(writeStmt(mem, wr, false));
            }
        }
        flaggedStores.addAll(mustStore);
        plainStores.addAll(mustStore);
        mustStore = flaggedStores;
        flagging = true;
        List<StringBuilder> evalBodies = emitInBounds(items, bounds);
        fast = true;
        List<StringBuilder> fastBodies = emitInBounds(items, bounds);
        flagging = false;
        mustStore = plainStores;
        List<StringBuilder> plainBodies = emitInBounds(plainItems, plainBounds);
        fast = false;
        flagging = false;
        chunk = null;
        String params = "long[] v, long[] w, long[][] m, long[] nx, long[] nxw, boolean rst, long[] act";
        MethodSplitter evalM = new MethodSplitter(className, "c", params);
        evalM.bodies.addAll(evalBodies);
        MethodSplitter fastM = new MethodSplitter(className, "f", params);
        fastM.bodies.addAll(fastBodies);
        MethodSplitter plainM = new MethodSplitter(className, "p", params);
        plainM.bodies.addAll(plainBodies);
        MethodSplitter commitM = MethodSplitter.split(className, "t", commit, "long[] v, long[] w, long[][] m, long[] nx, long[] act");
        MethodSplitter commitPlainM = MethodSplitter.split(className, "u", commitPlain, "long[] v, long[] w, long[][] m, long[] nx, long[] act");
        MethodSplitter checkM = MethodSplitter.split(className, "k", checks, "long[] v, long[] w, org.flitkit.hdl.sim.SimModel.Events ev");
        List<String> resets = new ArrayList<>();
        for (Bits st : layout.state) {
            if (literalReset(st)) {
                resets.add(resetStmt(st) + comment(st));
            }
        }
        MethodSplitter resetM = MethodSplitter.split(className, "r", resets, "long[] nx");
        int words = activity.flagWords();
        String prologue = "        final long[] v = %1$s.v, w = %1$s.w, nx = %1$s.nx, nxw = %1$s.nxw, act = %1$s.act;\n"
                + "        final long[][] m = %1$s.m;\n        final boolean rst = %1$s.reset;\n";

        StringBuilder src = new StringBuilder(UNIT_HEADER);
        src.append("/** Generated by FlitKit from ").append(net.top().definitionName()).append(". */\n");
        src.append("public final class ").append(className).append(" extends org.flitkit.hdl.sim.SimModel {\n");
        src.append("    public ").append(className).append("() {\n        super(").append(layout.nv).append(", ").append(layout.nw).append(", ")
                .append(layout.stateCount).append(", ").append(layout.wideStateCount).append(", ").append(activity.chunkCount).append(", new int[] {");
        for (int i = 0; i < layout.memSizes.length; i++) {
            src.append(i == 0 ? "" : ", ").append(layout.memSizes[i]);
        }
        src.append("});\n    }\n\n");
        src.append("    public void evalComb() {\n").append(prologue.formatted("this"));
        MethodSplitter evalD = evalM.dispatchers("d", true, src, words, fastUnstored);
        src.append("    }\n\n");
        src.append("    public void commit() {\n").append(prologue.formatted("this"));
        commitBody(src, commitM, checkM, resetM, words, "this");
        // the dispatchers call into the part classes, so they live in the class compiled last
        evalD.inline(src);
        src.append("}\n");
        List<StringBuilder> model = new ArrayList<>(List.of(src));
        evalM.classes(model);
        commitM.classes(model);
        resetM.classes(model);
        checkM.classes(model);

        StringBuilder fastSrc = variantHeader(FAST, "evaluates only the chunks whose inputs changed, keeping values nobody outside a chunk reads in locals");
        fastSrc.append("    public void eval(org.flitkit.hdl.sim.SimModel mdl) {\n").append(prologue.formatted("mdl"));
        MethodSplitter fastD = fastM.dispatchers("e", false, fastSrc, words, fastUnstored);
        fastSrc.append("    }\n\n    public void commit(org.flitkit.hdl.sim.SimModel mdl) {\n        mdl.commit();\n    }\n");
        fastD.inline(fastSrc);
        fastSrc.append("}\n");
        List<StringBuilder> fastUnits = new ArrayList<>(List.of(fastSrc));
        fastM.classes(fastUnits);

        StringBuilder plainSrc = variantHeader(PLAIN, "evaluates every chunk with no activity bookkeeping, for stretches where most logic is busy");
        plainSrc.append("    public void eval(org.flitkit.hdl.sim.SimModel mdl) {\n").append(prologue.formatted("mdl"));
        MethodSplitter plainD = plainM.groups("q", plainSrc);
        plainSrc.append("    }\n\n    public void commit(org.flitkit.hdl.sim.SimModel mdl) {\n").append(prologue.formatted("mdl"));
        commitBody(plainSrc, commitPlainM, checkM, resetM, 0, "mdl");
        plainD.inline(plainSrc);
        plainSrc.append("}\n");
        List<StringBuilder> plainUnits = new ArrayList<>(List.of(plainSrc));
        plainM.classes(plainUnits);
        commitPlainM.classes(plainUnits);
        return new Output(new Programs(strings(model), strings(fastUnits), strings(plainUnits)), plan());
    }

    private SimPlan plan() {
        List<SimPlan.Constant> wide = new ArrayList<>();
        for (int i = 0; i < layout.wideConsts.size(); i++) {
            wide.add(new SimPlan.Constant(layout.wideConstOffsets.get(i), layout.wideConsts.get(i)));
        }
        List<SimPlan.Constant> narrow = new ArrayList<>();
        for (long[] c : layout.narrowConsts) {
            narrow.add(new SimPlan.Constant((int) c[0], new long[] {c[1]}));
        }
        Map<Bits, long[]> readers = new IdentityHashMap<>();
        for (Bits b : net.inputs()) {
            readers.put(b, activity.inputReaders(b).toLongArray());
        }
        return new SimPlan(new SimPlan.SlotMap(layout.nslot, layout.wslot, layout.aliasOf), layout.nv, layout.nw, wide, narrow, readers,
                java.util.Arrays.copyOf(counterChunks.toLongArray(), activity.flagWords()), activity.counterSteps(), !counterReadAtEdge,
                activity.chunkModules, activity.chunkChars);
    }

    private StringBuilder variantHeader(String suffix, String what) {
        StringBuilder src = new StringBuilder(UNIT_HEADER);
        src.append("/** Generated by FlitKit from ").append(net.top().definitionName()).append(": ").append(what).append(". */\n");
        src.append("public final class ").append(className).append(suffix).append(" extends org.flitkit.hdl.sim.SimModel.Variant {\n");
        return src;
    }

    private static List<String> strings(List<StringBuilder> units) {
        List<String> out = new ArrayList<>();
        for (StringBuilder u : units) {
            out.add(u.toString());
        }
        return out;
    }

    /**
     * The clock edge: checks and prints, memory writes, constant resets, the state copy, and (with
     * {@code words} flag words) the flags raised for the coming cycle.
     */
    private void commitBody(StringBuilder src, MethodSplitter commitM, MethodSplitter checkM, MethodSplitter resetM, int words, String model) {
        if (!checkM.bodies.isEmpty()) {
            src.append("        if (!rst) {\n");
            checkM.calls(src, "v, w, " + model + ".events", "            ");
            src.append("        }\n");
        }
        commitM.calls(src, "v, w, m, nx, act");
        if (!resetM.bodies.isEmpty()) {
            src.append("        if (rst) {\n");
            resetM.calls(src, "nx", "            ");
            src.append("        }\n");
        }
        if (layout.stateCount > 0) {
            src.append("        System.arraycopy(nx, 0, v, ").append(layout.stateBase).append(", ").append(layout.stateCount).append(");\n");
        }
        if (layout.wideStateCount > 0) {
            src.append("        System.arraycopy(nxw, 0, w, ").append(layout.wideStateBase).append(", ").append(layout.wideStateCount).append(");\n");
        }
        // what changed at this edge wakes its readers in the coming cycle (and everything while in reset)
        for (int i = 0; i < words; i++) {
            src.append("        act[").append(SimModel.FLAGS + i).append("] |= rst ? ").append(hex(SimModel.validBits(activity.chunkCount, i)))
                    .append(" : act[").append(SimModel.FLAGS + words + i)
                    .append("]; act[").append(SimModel.FLAGS + words + i).append("] = 0L;\n");
        }
        src.append("    }\n\n");
    }

    // ------------------------------------------------------------------ activity

    /** emitting the wake-up code of the activity flags (passes 2 and 3) */
    private boolean flagging;
    /** the activity plan, made from the chunks of pass 1 */
    private ActivityPlan activity;
    /** emitting: the previous item was a counter's next state, so the next item starts a chunk */
    private boolean afterCounter;
    /** chunks that compute nothing but a counter's next value */
    final java.util.BitSet counterChunks = new java.util.BitSet();
    /** the clock-edge code (checks, memory writes) reads a counter, so the design never sleeps */
    boolean counterReadAtEdge;

    /** slots of the counters, and the mux selects enclosing the expression being generated (innermost first) */
    private final java.util.Set<Integer> counterSlots = new java.util.HashSet<>();
    private final java.util.ArrayDeque<Guard> guards = new java.util.ArrayDeque<>();
    /** An arm of a two-way select: the first ({@code one}, taken while the select is 1) or the second. */
    private record Guard(Bits select, boolean one) {
    }

    /**
     * Generates an arm of a select whose Java condition is {@code c}, with the reads in it recorded as
     * guarded by that arm; under a constant condition the enclosing arms guard them.
     */
    private String inArm(Bits select, String c, boolean one, java.util.function.Supplier<String> arm) {
        if (c.equals(ONE) || c.equals(ZERO)) {
            return arm.get();
        }
        guards.push(new Guard(select, one));
        try {
            return arm.get();
        } finally {
            guards.pop();
        }
    }

    /**
     * {@code 2 * slot + 1} for the first arm of a stored select, {@code 2 * slot} for its second, -1 when the
     * select has no storage (the read counts as unguarded).
     */
    private int guardKey(Guard g) {
        Integer slot = layout.nslot.get(layout.rep(g.select()));
        return slot == null ? -1 : 2 * slot + (g.one() ? 1 : 0);
    }

    /** Source characters from which a chunk ends where the next item belongs to another module instance. */
    static final int MODULE_CHUNK_MIN = 600;

    /** The chunk being cut holds constants: it ends before the first item that is not one. */
    private boolean holdsConstants;

    /**
     * Emits items into chunk methods; an item that would overflow a method starts the next one, and so
     * does an item of another module instance once the chunk has some size, and the first item after
     * the constants.
     */
    private void emitChunks(List<Item> items, List<Integer> bounds, List<Chunk> chunks, boolean byModule, int constantItems) {
        int len = 0;
        chunk = new Chunk();
        chunkIndex = 0;
        org.flitkit.hdl.Module owner = null;
        for (int idx = 0; idx < items.size(); idx++) {
            Item it = items.get(idx);
            int mark = chunk.added.size();
            int r0 = chunk.reads.size();
            int m0 = chunk.memReads.size();
            int p0 = chunk.wProduced.size();
            String stmt = emit(it);
            if (stmt == null) {
                continue;
            }
            boolean full = len + stmt.length() > MethodSplitter.METHOD_BUDGET;
            boolean moduleEnds = byModule && (it.node().owner() != owner && len >= MODULE_CHUNK_MIN || holdsConstants && idx >= constantItems);
            // a counter steps alone in its chunk: a design where only counters move can sleep (see quietMask)
            boolean counter = byModule && it.next() && layout.counters.contains(it.node());
            if (len > 0 && (full || moduleEnds || counter || afterCounter)) {
                // the item goes to the next chunk: take back what it recorded in this one
                for (int k = chunk.added.size() - 1; k >= mark; k--) {
                    chunk.locals.remove(chunk.added.remove(k));
                }
                chunk.reads.subList(r0, chunk.reads.size()).clear();
                chunk.memReads.subList(m0, chunk.memReads.size()).clear();
                chunk.wProduced.subList(p0, chunk.wProduced.size()).clear();
                chunks.add(chunk);
                bounds.add(idx);
                len = 0;
                chunk = new Chunk();
                chunkIndex++;
                stmt = emit(it);
            }
            owner = it.node().owner();
            holdsConstants = idx < constantItems;
            len += stmt.length() + 9;
            chunk.owners.add(owner == null ? "?" : owner.path());
            chunk.chars = len;
            afterCounter = counter;
            if (counter) {
                counterChunks.set(chunkIndex);
            }
        }
        afterCounter = false;
        holdsConstants = false;
        if (len > 0) {
            chunks.add(chunk);
        }
    }

    /** The same items in the same chunks again, with the activity flags (the two variants agree on what crosses chunks). */
    private List<StringBuilder> emitInBounds(List<Item> items, List<Integer> bounds) {
        List<StringBuilder> bodies = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        chunk = new Chunk();
        chunkIndex = 0;
        int next = 0;
        for (int idx = 0; idx < items.size(); idx++) {
            if (next < bounds.size() && idx == bounds.get(next)) {
                bodies.add(flagging ? flagged(cur, chunk, chunkIndex) : cur);
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
            bodies.add(flagging ? flagged(cur, chunk, chunkIndex) : cur);
        }
        return bodies;
    }

    /**
     * The dispatcher clears a word's flags once its chunks have run, and updates their stale and
     * profile marks (see {@link MethodSplitter#dispatchers}). A chunk records only whether the fast variant
     * kept some value in locals, so that the next {@code evalComb} runs it again to store them.
     */
    private StringBuilder flagged(StringBuilder body, Chunk c, int index) {
        if (fast && c.unstored) {
            fastUnstored.set(index);
        }
        return body;
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
}
