package org.flitkit.hdl.sim;

import static org.flitkit.hdl.sim.SourceText.*;
import static org.flitkit.hdl.sim.Wide.limbs;
import static org.flitkit.hdl.sim.Wide.maskOf;

import java.math.BigInteger;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Netlist;
import org.flitkit.hdl.Op;

/**
 * The narrow expression emitter: the Java {@code long} expression of a value of up to 64 bits, inlining
 * single-use operations, folding constants and selects known inside their arms, and turning CRC equations
 * into table lookups (docs/simulator.md, "Other code generation details").
 */
final class NarrowEmitter {
    private final EmitState st;
    private final SlotLayout layout;
    private final Netlist net;

    /** set once both emitters exist: wide fields are read through it */
    WideEmitter wide;

    NarrowEmitter(EmitState st) {
        this.st = st;
        this.layout = st.layout;
        this.net = st.net;
    }

    static String mask(String e, int w) {
        return w >= 64 ? "(" + e + ")" : "((" + e + ") & " + hex(maskOf(w)) + ")";
    }

    static String sext(String e, int w) {
        return w >= 64 ? e : "((" + e + " << " + (64 - w) + ") >> " + (64 - w) + ")";
    }

    /** Java expression (long) for a narrow node. */
    String ex(Bits n) {
        Bits r = layout.rep(n);
        if (r.kind() == Kind.LIT) {
            return hex(r.litValue().longValue());
        }
        String k = st.known.get(r);
        if (k != null) {
            return k;
        }
        if (layout.nslot.containsKey(r)) {
            return st.slotRead(layout.nslot.get(r));
        }
        if (r.kind() != Kind.OP) {
            throw new IllegalStateException("unslotted " + r.kind() + " " + r);
        }
        return opExpr(r);
    }

    String opExpr(Bits n) {
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
            case ANDR: return wide(a0) ? bool("Wide.andReduce(w, " + st.off(a0) + ", " + a0.width() + ")")
                    : bool(ex(a0) + " == " + hex(maskOf(a0.width())));
            case ORR: return wide(a0) ? bool("Wide.orReduce(w, " + st.off(a0) + ", " + a0.width() + ")") : bool(ex(a0) + " != 0L");
            case XORR:
                if (layout.fusedParity.contains(a0)) {
                    Bits x = a0.args().get(0);
                    Bits y = a0.args().get(1);
                    return bool("Wide.andParity(w, " + st.off(x) + ", w, " + st.off(y) + ", " + a0.width() + ")");
                }
                return wide(a0) ? bool("Wide.xorReduce(w, " + st.off(a0) + ", " + a0.width() + ")")
                    : "(long) (Long.bitCount(" + ex(a0) + ") & 1)";
            case SLICE:
                if (wide(a0)) {
                    return wide.extract(a0, n.param1(), w);
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
                    String before = st.known.put(sel, ONE);
                    x = st.inArm(a0, c, true, () -> ex(a.get(1)));
                    st.known.put(sel, ZERO);
                    y = st.inArm(a0, c, false, () -> ex(a.get(2)));
                    if (before == null) {
                        st.known.remove(sel);
                    } else {
                        st.known.put(sel, before);
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

    static final String ZERO = "0x0L";
    static final String ONE = "0x1L";

    /** {@code a & b}, folded when an operand is the constant 0 or both are constants. */
    static String and(String a, String b) {
        if (isLit(a) && isLit(b)) {
            return hex(lit(a) & lit(b));
        }
        return a.equals(ZERO) || b.equals(ZERO) ? ZERO : "(" + a + " & " + b + ")";
    }

    /** {@code a | b} or {@code a ^ b}, folded when an operand is the constant 0 (OR and XOR with 0 are the identity) or both are constants. */
    static String orXor(String op, String a, String b) {
        if (isLit(a) && isLit(b)) {
            return hex(op.equals(" | ") ? lit(a) | lit(b) : lit(a) ^ lit(b));
        }
        if (a.equals(ZERO)) {
            return b;
        }
        return b.equals(ZERO) ? a : "(" + a + op + b + ")";
    }

    static final java.util.regex.Pattern LIT = java.util.regex.Pattern.compile("0x[0-9a-f]{1,16}L");

    /** Whether a generated expression is a constant (as {@link SourceText#hex} writes them). */
    static boolean isLit(String e) {
        return e.length() <= 19 && LIT.matcher(e).matches();
    }

    static long lit(String e) {
        return Long.parseUnsignedLong(e.substring(2, e.length() - 1), 16);
    }

    static final java.util.regex.Pattern ATOMIC = java.util.regex.Pattern.compile("v\\[\\d+\\]|x\\d+|0x[0-9a-f]+L");

    static boolean atomic(String e) {
        return e.length() < 24 && ATOMIC.matcher(e).matches();
    }

    String shrStatic(Bits n, Bits a0) {
        int p = n.param0();
        int aw = a0.width();
        if (wide(a0)) {
            // shifted past the width: zeros, or for SInt copies of the sign bit (the 1-bit result is the sign)
            if (p >= aw && !a0.isSigned()) {
                return "0L";
            }
            return wide.extract(a0, Math.min(p, aw - 1), n.width());
        }
        if (a0.isSigned()) {
            return mask("(" + sext(ex(a0), aw) + " >> " + Math.min(p, 63) + ")", n.width());
        }
        return p >= aw ? "0L" : "(" + ex(a0) + " >>> " + p + ")";
    }

    static String bool(String cond) {
        return "(" + cond + " ? 1L : 0L)";
    }

    String compare(Bits n) {
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
            String args = "w, " + st.off(x) + ", w, " + st.off(y) + ", " + x.width() + ")";
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

    String memRead(Bits n, String addr) {
        Mem<?> mem = n.mem();
        int k = st.memRef(mem);
        int bits = Memories.elementBits(mem.width());
        String array = Memories.arrayRef(k, mem.width());
        if ((1L << Math.min(n.args().get(0).width(), 62)) <= mem.depth()) {
            // every address is in range: index directly, zero-extending the stored word
            String word = array + "[(int) " + addr + "]";
            return bits == 64 ? word : "(" + word + " & " + SourceText.hex((1L << bits) - 1) + ")";
        }
        return "MemPorts.read" + bits + "(" + array + ", " + addr + ", " + mem.depth() + ")";
    }

    /** Concatenations of at least this many parity bits of one wide value are computed by a table (see {@link #linearCat}). */
    static final int LINEAR_MIN_BITS = 8;

    /**
     * A concatenation of up to 32 parities of masked copies of one wide value, each maybe inverted (the
     * equations of a parallel CRC), as one {@link LinearMaps#apply} lookup per input byte: the table holds the
     * output bits each input byte flips. Null when {@code n} is not of that form, or a part is also used
     * elsewhere (then it has its own statement).
     */
    String linearCat(Bits n) {
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
        String e = "LinearMaps.apply(w, " + st.off(x) + ", " + id + ", " + limbs(x.width()) + ")";
        return inverted == 0L ? e : "(" + e + " ^ " + hex(inverted) + ")";
    }

    final Map<Bits, Integer> linearIds = new IdentityHashMap<>();

    /** The table of {@link LinearMaps} for output bits {@code k} = parity of {@code x & masks[k]}. */
    static int[] linearTable(Bits x, BigInteger[] masks) {
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
}
