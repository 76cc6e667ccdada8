package org.flitkit.hdl.sim;

import static org.flitkit.hdl.sim.SourceText.*;
import static org.flitkit.hdl.sim.Wide.limbs;
import static org.flitkit.hdl.sim.Wide.maskOf;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Netlist;
import org.flitkit.hdl.Op;

/**
 * The wide expression emitter: statements computing values over 64 bits into {@code w}, limb by limb where
 * that avoids a stored temporary (selects, pads, aligned slices and shifts computed in place), or through
 * {@link Wide} (docs/simulator.md, "Other code generation details").
 */
final class WideEmitter {
    private final EmitState st;
    private final SlotLayout layout;
    private final Netlist net;
    private final NarrowEmitter narrow;

    WideEmitter(EmitState st, NarrowEmitter narrow) {
        this.st = st;
        this.layout = st.layout;
        this.net = st.net;
        this.narrow = narrow;
    }

    String selStmt(Bits n) {
        List<Bits> a = n.args();
        int cases = a.size() - 1;
        String dst = wide(n) ? null : "v[" + layout.nslot.get(n) + "]";
        StringBuilder sb = new StringBuilder("{ long i = " + narrow.ex(a.get(0)) + "; switch (i < " + cases + "L ? (int) i : " + cases + ") {");
        for (int i = 0; i < cases; i++) {
            sb.append(" case ").append(i).append(": ")
                    .append(dst != null ? dst + " = " + narrow.ex(a.get(i + 1)) + ";" : wcopy(n, a.get(i + 1)))
                    .append(" break;");
        }
        sb.append(" default: ").append(dst != null ? dst + " = 0L;" : "Wide.zero(w, " + st.off(n) + ", " + n.width() + ");");
        return sb.append(" } }").toString();
    }

    String wcopy(Bits dst, Bits src) {
        return limbBlock("w", st.off(dst), dst.width(), src);
    }

    /**
     * {@code d[doff..]} = the {@code width}-bit value {@code src}: a copy of its storage, or, for a value
     * computed in place (see {@link SlotLayout#findLimbInlined}), a select as if/else on its condition and anything
     * else as one statement per limb.
     */
    String limbBlock(String d, int doff, int width, Bits src) {
        return selectChain(src, r -> layout.limbInlined.contains(r) ? expandInto(d, doff, r) : copy(d, doff, width, "w", st.off(r)));
    }

    /**
     * A select computed in place (see {@link SlotLayout#findLimbInlined}) as if/else on its condition, recursively,
     * with {@code leaf} writing every other value.
     */
    String selectChain(Bits src, java.util.function.Function<Bits, String> leaf) {
        Bits r = layout.rep(src);
        if (layout.limbInlined.contains(r) && r.op() == Op.MUX) {
            Bits sel = r.args().get(0);
            String c = narrow.ex(sel);
            String x = st.inArm(sel, c, true, () -> selectChain(r.args().get(1), leaf));
            String y = st.inArm(sel, c, false, () -> selectChain(r.args().get(2), leaf));
            return "if (" + c + " != 0L) " + x + " else " + y;
        }
        return leaf.apply(r);
    }

    /** {@code d[doff..]} = the limb-local operation {@code n}, one statement per limb. */
    String expandInto(String d, int doff, Bits n) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < limbs(n.width()); i++) {
            sb.append(' ').append(d).append('[').append(doff + i).append("] = ").append(expand(n, i)).append(';');
        }
        return sb.append(" }").toString();
    }

    /** Java expression for limb {@code i} of wide {@code n}: its storage, or its operation for a value computed in place. */
    String limb(Bits n, int i) {
        Bits r = layout.rep(n);
        if (i >= limbs(r.width())) {
            // above the value's width (a pad reading a narrower value computed in place): zero, whatever its operands hold there
            return "0L";
        }
        if (r.kind() == Kind.LIT) {
            // a constant's limb is a literal: a select with a zero arm, the usual one-hot form, loads nothing for it
            return hex(SourceText.limbsOf(r.litValue(), r.width())[i]);
        }
        return layout.limbInlined.contains(r) ? expand(r, i) : "w[" + (st.off(r) + i) + "]";
    }

    /** Limb {@code i} of {@code n}, a limb-local operation (see {@link SlotLayout#limbLocal}) or a shift of a stored value, from its operands' limbs. */
    String expand(Bits n, int i) {
        List<Bits> a = n.args();
        switch (n.op()) {
            case MUX: {
                String c = narrow.ex(a.get(0));
                String x = st.inArm(a.get(0), c, true, () -> limb(a.get(1), i));
                String y = st.inArm(a.get(0), c, false, () -> limb(a.get(2), i));
                return "(" + c + " != 0L ? " + x + " : " + y + ")";
            }
            case EXT:
                return limb(a.get(0), i);
            case AND: case OR: case XOR: {
                String op = n.op() == Op.AND ? " & " : n.op() == Op.OR ? " | " : " ^ ";
                return "(" + limb(a.get(0), i) + op + limb(a.get(1), i) + ")";
            }
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
    String extract(Bits a, int lo, int width) {
        String v = bitsFrom(a, lo, width);
        return width >= 64 ? v : "(" + v + " & " + hex(maskOf(width)) + ")";
    }

    /**
     * Bits {@code lo} up of wide {@code a}, at least {@code bits} of them up to 64, not masked: a limb, or
     * two limbs shifted together where the bits cross a limb boundary; 0 past the width of {@code a}.
     */
    String bitsFrom(Bits a, int lo, int bits) {
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
    static String copy(String d, int doff, int width, String a, int aoff) {
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
    String operand(Bits x) {
        return st.arr(x) + ", " + st.off(x) + ", " + x.width();
    }

    String wideDivStmt(Bits n) {
        Bits x = n.args().get(0);
        Bits y = n.args().get(1);
        String fn = n.op() == Op.DIV ? "div" : "rem";
        return "Wide." + fn + "(" + st.arr(n) + ", " + st.off(n) + ", " + n.width() + ", " + operand(x) + ", " + operand(y) + ", "
                + x.isSigned() + ", w, " + layout.scratchOff + ");";
    }

    String wideStmt(Bits n) {
        List<Bits> a = n.args();
        Bits a0 = a.isEmpty() ? null : a.get(0);
        int d = st.off(n);
        int w = n.width();
        String dst = "w, " + d;
        switch (n.op()) {
            case AND: case OR: case XOR:
                return SlotLayout.limbLocal(n) ? expandInto("w", d, n) : wideCall(n, dst);
            case ADD: case SUB:
                return wideCall(n, dst);
            case NOT: case NEG:
                return "Wide." + n.op().name().toLowerCase() + "(" + dst + ", w, " + st.off(a0) + ", " + w + ");";
            case MUL:
                return "Wide.mul(" + dst + ", " + w + ", " + operand(a0) + ", " + operand(a.get(1)) + ", " + a0.isSigned() + ");";
            case DIV: case REM:
                return wideDivStmt(n);
            case SHL:
                if (wide(a0) && !a0.isSigned() && limbs(w) <= UNROLL_LIMBS) {
                    return shiftLeftCopy(d, w, st.off(a0), a0.width(), n.param0());
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
                            + ", w, " + layout.scratchOff + ", " + w + ", " + narrow.ex(a.get(1)) + ");";
                }
                return "Wide.shl(" + dst + ", " + w + ", " + operand(a0) + ", " + narrow.ex(a.get(1)) + ");";
            case DSHR:
                return "Wide.shr(" + dst + ", " + w + ", " + operand(a0) + ", " + narrow.ex(a.get(1)) + ", " + a0.isSigned() + ");";
            case SLICE:
                if (SlotLayout.limbLocal(n)) {
                    return expandInto("w", d, n);
                }
                if (limbs(w) <= UNROLL_LIMBS) {
                    return shiftRightCopy(d, w, a0, n.param1());
                }
                return "Wide.extractWide(" + dst + ", " + w + ", w, " + st.off(a0) + ", " + n.param1() + ");";
            case CAT: {
                if (limbs(w) <= UNROLL_LIMBS) {
                    return catLimbs(n, d);
                }
                StringBuilder sb = new StringBuilder("Wide.zero(" + dst + ", " + w + ");");
                int lo = w;
                for (Bits p : a) {
                    lo -= p.width();
                    sb.append(wide(p) ? " Wide.insertWide(" + dst + ", " + lo + ", w, " + st.off(p) + ", " + p.width() + ");"
                            : " Wide.insert(" + dst + ", " + lo + ", " + narrow.ex(p) + ", " + p.width() + ");");
                }
                return sb.toString();
            }
            case MUX:
                return "if (" + narrow.ex(a0) + " != 0L) " + wcopy(n, a.get(1)) + " else " + wcopy(n, a.get(2));
            case SEL:
                return selStmt(n);
            case EXT:
                if (SlotLayout.limbLocal(n)) {
                    return expandInto("w", d, n);
                }
                if (!a0.isSigned() && limbs(w) <= UNROLL_LIMBS) {
                    return wide(a0) ? shiftRightCopy(d, w, a0, 0) : catLimbs(n, d);
                }
                return wide(a0) ? "Wide.extend(" + dst + ", " + w + ", w, " + st.off(a0) + ", " + a0.width() + ", " + a0.isSigned() + ");"
                        : "Wide.fromLong(" + dst + ", " + w + ", " + narrow.ex(a0) + ", " + a0.width() + ", " + a0.isSigned() + ");";
            case MEM_READ: {
                Mem<?> mem = n.mem();
                return "MemPorts.readWide(m.l[" + st.memRef(mem) + "], " + narrow.ex(a0) + ", " + mem.depth() + ", " + dst + ", " + w + ");";
            }
            default:
                throw new IllegalStateException("no wide statement for " + n.op());
        }
    }

    /** {@code Wide.add/sub/and/or/xor(dst, w, a, w, b, width)} for a two-operand operation on stored values. */
    private String wideCall(Bits n, String dst) {
        return "Wide." + n.op().name().toLowerCase() + "(" + dst + ", w, " + st.off(n.args().get(0)) + ", w, " + st.off(n.args().get(1)) + ", "
                + n.width() + ");";
    }

    /** Wide values up to this many limbs are moved by generated limb statements instead of Wide's loops. */
    static final int UNROLL_LIMBS = 16;

    /** {@code w[d..] = (a >>> lo)} truncated to {@code dw} bits; limbs past the width of {@code a} read as 0. */
    String shiftRightCopy(int d, int dw, Bits a, int lo) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < limbs(dw); i++) {
            limbStore(sb, d, dw, i, bitsFrom(a, lo + 64 * i, 64));
        }
        return sb.toString();
    }

    /** {@code w[d..] = w[src..] << amount}, {@code dw} bits. */
    String shiftLeftCopy(int d, int dw, int src, int sw, int amount) {
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
    static void limbStore(StringBuilder sb, int d, int dw, int i, String e) {
        boolean top = i == limbs(dw) - 1 && (dw & 63) != 0;
        sb.append(sb.length() == 0 ? "" : " ").append("w[").append(d + i).append("] = ")
                .append(top && !e.equals("0L") ? "(" + e + ") & " + hex(maskOf(dw & 63)) : e).append(';');
    }

    /**
     * A concatenation (or zero-extension of a narrow value) computed limb by limb: each destination limb
     * is the OR of the shifted pieces that overlap it. Narrow pieces are evaluated once, into locals.
     */
    String catLimbs(Bits n, int d) {
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
                String x = narrow.ex(p);
                if (x.equals(NarrowEmitter.ZERO)) {
                    continue;
                }
                if (b + p.width() > 64 && !NarrowEmitter.atomic(x)) {
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
}
