package org.flitkit.hdl.verilog;

import static org.flitkit.hdl.verilog.Idents.id;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Check;
import org.flitkit.hdl.Format;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Kind;
import org.flitkit.hdl.Mem;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.Op;

/**
 * Writes the Verilog text of one module instance (the module name left as a placeholder so that
 * instances with identical bodies can share one definition).
 *
 * <p>Width safety: Verilog sizes and signs an expression from its context, so nested expressions can
 * change meaning when inlined (a carry surviving into a wider context, one unsigned operand making a
 * comparison unsigned). Here every operand of an operation is either a signal (port, register, wire,
 * or an explicitly sized wire {@code _T_<n>} holding an inner operation) or pure bit plumbing (slice,
 * extension, concatenation, static shift, reinterpretation) written as part-selects and concatenations
 * whose width and signedness are exactly the node's ({@code $signed(...)} where the node is signed).
 * Since the DSL gives both operands of an operation the width of its result (except multiply, divide,
 * remainder and dynamic left shift, whose operands are extended here to the computing width), every
 * operand already has the width of its context. An operation read only once, by an assignment to a
 * signal of its own width or as a condition, is written in place: there too the context adds nothing.
 */
final class ModuleWriter {
    static final String NAME_PLACEHOLDER = "\u0000MODULE\u0000";

    /** What the parent needs to know about an emitted child. */
    record Info(String name, boolean clocked) {
    }

    private final Module m;
    private final Map<Module, Info> children;
    private final boolean clocked;

    /** nodes that are Verilog signals in this module, with their (raw) names */
    private final Map<Bits, String> sig = new IdentityHashMap<>();
    private final Map<String, Integer> sigWidth = new LinkedHashMap<>();
    private final Set<String> taken = new HashSet<>();
    /** read bits of every tracked signal; memories use bit 0 */
    private final Map<String, BitSet> used = new LinkedHashMap<>();
    private final Set<Bits> defined = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Bits, Integer> uses = new IdentityHashMap<>();
    /** MUX nodes written as if/else in the register process */
    private final Set<Bits> asIf = Collections.newSetFromMap(new IdentityHashMap<>());
    /** single-use dynamic right shifts whose only reader takes bit 0: written as a bit-select */
    private final Set<Bits> fused = Collections.newSetFromMap(new IdentityHashMap<>());
    /** user-named expressions: wires of their own */
    private final Set<Bits> named = Collections.newSetFromMap(new IdentityHashMap<>());
    /** nodes whose operands all have their wires already */
    private final Set<Bits> prepared = Collections.newSetFromMap(new IdentityHashMap<>());
    /** single-use operations written directly where they are read */
    private final Set<Bits> inPlace = Collections.newSetFromMap(new IdentityHashMap<>());
    private int temps;

    /** What a declared signal is, for the comment explaining a lint waiver on it. */
    private enum Role {
        /** not checked for unread bits (outputs, loop variables) */
        UNTRACKED, CLOCK, RESET, INPUT, CHILD_INPUT, CHILD_OUTPUT, INTERNAL
    }

    /** A declaration; {@code subject} names the signal in waiver comments ({@code fifo.count} for a child port). */
    private record Decl(String name, String text, Role role, String subject) {
        Decl(String name, String text, Role role) {
            this(name, text, role, name);
        }
    }

    private final List<Decl> ports = new ArrayList<>();
    private final List<Decl> regDecls = new ArrayList<>();
    private final List<Decl> memDecls = new ArrayList<>();
    private final List<Decl> wireDecls = new ArrayList<>();
    private final List<String> assigns = new ArrayList<>();
    private final List<String> seq = new ArrayList<>();
    private final List<String> init = new ArrayList<>();
    private final List<String> insts = new ArrayList<>();
    /** assertion and print statements, inside {@code if (!reset)} at the clock edge */
    private final List<String> checkStmts = new ArrayList<>();

    /** what this module emits: its live logic (dead logic is reported at elaboration and left out) */
    private final List<Bits> regs;
    private final List<Bits> wires;
    private final List<Bits> namedExprs;
    private final List<Bits> syncReads;
    private final List<Mem<?>> mems = new ArrayList<>();

    ModuleWriter(Module m, Map<Module, Info> children, boolean clocked) {
        this.m = m;
        this.children = children;
        this.clocked = clocked;
        regs = live(m.regs());
        wires = live(m.wires());
        namedExprs = live(m.namedExpressions());
        syncReads = live(m.syncReads());
        for (Mem<?> mem : m.mems()) {
            if (!m.isDead(mem)) {
                mems.add(mem);
            }
        }
    }

    private List<Bits> live(List<Bits> signals) {
        List<Bits> out = new ArrayList<>();
        for (Bits b : signals) {
            if (!m.isDead(b)) {
                out.add(b);
            }
        }
        return out;
    }

    // ================================================================== driver

    String write() {
        declare();
        countUses();
        for (Bits p : m.ports()) {
            if (p.kind() == Kind.OUTPUT) {
                assignTo(p, sig.get(p));
            }
        }
        for (Bits w : wires) {
            assignTo(w, sig.get(w));
        }
        for (Bits n : namedExprs) {
            prepare(n);
        }
        for (Module c : m.children()) {
            for (Bits p : c.ports()) {
                if (p.kind() == Kind.INPUT) {
                    assignTo(p, sig.get(p));
                }
            }
        }
        registers();
        memories();
        checks();
        instances();
        if (!seq.isEmpty()) {
            markUsed("clk", 0, 0);
        }
        return render();
    }

    private Bits driver(Bits target) {
        Bits d = m.drivers().get(target);
        if (d == null) {
            throw new IllegalStateException("no driver for " + target.path() + " in " + m.path());
        }
        return d;
    }

    private void assignTo(Bits target, String name) {
        assigns.add(assign(id(name), value(driver(target)).text()));
    }

    private static String assign(String lhs, String rhs) {
        return "assign " + lhs + " =" + (rhs.startsWith("\n") ? "" : " ") + bare(rhs) + ";";
    }

    /** Text of a value in statement position; {@code atom} when it needs no parentheses. */
    private record Val(String text, boolean atom) {
        String paren() {
            return atom ? text : "(" + text + ")";
        }
    }

    /**
     * The value of {@code d} where its width is the whole context: the right-hand side of an assignment
     * to a signal of the same width and signedness, or a one-bit condition. An unnamed operation read
     * only here is written in place instead of through a wire of its own.
     */
    private Val value(Bits d) {
        boolean bitSel = d.kind() == Kind.OP && d.op() == Op.SLICE && fused.contains(d.args().get(0));
        if (d.kind() == Kind.OP && (!plumbing(d.op()) || bitSel) && !sig.containsKey(d) && !asIf.contains(d) && !fused.contains(d)
                && uses.getOrDefault(d, 0) == 1 && !defined.contains(d)) {
            inPlace.add(d);
            prepare(d);
            defined.add(d);
            return new Val(expr(d), false);
        }
        prepare(d);
        return new Val(operand(d), true);
    }

    // ================================================================== declarations

    private void declare() {
        for (Bits p : m.ports()) {
            reserve(p.name());
        }
        for (Bits b : m.regs()) {
            reserve(b.name());
        }
        for (Bits b : m.syncReads()) {
            reserve(b.name());
        }
        for (Bits b : m.wires()) {
            reserve(b.name());
        }
        for (Bits b : m.namedExpressions()) {
            reserve(b.name());
        }
        for (Mem<?> mem : m.mems()) {
            reserve(mem.name());
        }
        for (Module c : m.children()) {
            reserve(c.instanceName());
        }
        reserve("clk");
        reserve("reset");

        if (clocked) {
            signal(null, "clk", 1, true);
            ports.add(new Decl("clk", "input clk", Role.CLOCK));
            signal(null, "reset", 1, true);
            ports.add(new Decl("reset", "input reset", Role.RESET));
        }
        for (Bits p : m.ports()) {
            boolean in = p.kind() == Kind.INPUT;
            signal(p, p.name(), p.width(), in);
            ports.add(new Decl(p.name(), (in ? "input " : "output ") + type(p) + id(p.name()), in ? Role.INPUT : Role.UNTRACKED));
        }
        for (Bits r : regs) {
            signal(r, r.name(), r.width(), true);
            regDecls.add(new Decl(r.name(), "reg " + type(r) + id(r.name()) + " = " + lit(BigInteger.ZERO, r.width(), r.isSigned()) + ";",
                    Role.INTERNAL));
        }
        for (Bits r : syncReads) {
            signal(r, r.name(), r.width(), true);
            regDecls.add(new Decl(r.name(), "reg " + type(r) + id(r.name()) + " = " + lit(BigInteger.ZERO, r.width(), r.isSigned()) + ";",
                    Role.INTERNAL));
        }
        for (Mem<?> mem : mems) {
            used.put(mem.name(), new BitSet());
            sigWidth.put(mem.name(), 1);
            memDecls.add(new Decl(mem.name(), "reg " + (mem.isSigned() ? "signed " : "") + range(mem.width()) + id(mem.name())
                    + " [0:" + (mem.depth() - 1) + "];", Role.INTERNAL));
        }
        for (Bits w : wires) {
            signal(w, w.name(), w.width(), true);
            wireDecls.add(new Decl(w.name(), "wire " + type(w) + id(w.name()) + ";", Role.INTERNAL));
        }
        for (Bits n : namedExprs) {
            named.add(n);
            signal(n, n.name(), n.width(), true);
            wireDecls.add(new Decl(n.name(), "wire " + type(n) + id(n.name()) + ";", Role.INTERNAL));
        }
        for (Module c : m.children()) {
            for (Bits p : c.ports()) {
                String n = fresh(c.instanceName() + "_" + p.name());
                signal(p, n, p.width(), true);
                wireDecls.add(new Decl(n, "wire " + type(p) + id(n) + ";",
                        p.kind() == Kind.INPUT ? Role.CHILD_INPUT : Role.CHILD_OUTPUT, c.instanceName() + "." + p.name()));
            }
        }
    }

    private void reserve(String name) {
        if (name == null) {
            throw new IllegalStateException("unnamed signal in " + m.path());
        }
        if (!taken.add(name)) {
            throw new IllegalStateException("two signals of " + m.path() + " are named '" + name
                    + "' (clk and reset are the implicit clock and reset of the emitted Verilog)");
        }
    }

    private String fresh(String base) {
        String n = base;
        for (int k = 1; taken.contains(n); k++) {
            n = base + "_" + k;
        }
        taken.add(n);
        return n;
    }

    private void signal(Bits node, String name, int width, boolean tracked) {
        if (node != null) {
            sig.put(node, name);
        }
        sigWidth.put(name, width);
        if (tracked) {
            used.put(name, new BitSet());
        }
    }

    private static String range(int w) {
        return w == 1 ? "" : "[" + (w - 1) + ":0] ";
    }

    private static String type(Bits b) {
        return (b.isSigned() ? "signed " : "") + range(b.width());
    }

    private String temp(Bits node, boolean isReg) {
        return temp(node.width(), node.isSigned(), isReg);
    }

    private String temp(int w, boolean signed, boolean isReg) {
        String n;
        do {
            n = "_T_" + temps++;
        } while (taken.contains(n));
        taken.add(n);
        sigWidth.put(n, w);
        used.put(n, new BitSet());
        wireDecls.add(new Decl(n, (isReg ? "reg " : "wire ") + (signed ? "signed " : "") + range(w) + n + ";", Role.INTERNAL));
        return n;
    }

    // ================================================================== use counts

    /** Number of readers of every node (each reader counted once), over everything this module emits. */
    private void countUses() {
        List<Bits> roots = new ArrayList<>();
        for (Bits p : m.ports()) {
            if (p.kind() == Kind.OUTPUT) {
                roots.add(driver(p));
            }
        }
        for (Bits w : wires) {
            roots.add(driver(w));
        }
        roots.addAll(namedExprs);
        for (Module c : m.children()) {
            for (Bits p : c.ports()) {
                if (p.kind() == Kind.INPUT) {
                    roots.add(driver(p));
                }
            }
        }
        for (Bits r : regs) {
            roots.add(driver(r));
            if (r.resetValue() != null) {
                roots.add(r.resetValue());
            }
        }
        for (Bits s : syncReads) {
            roots.addAll(s.args());
        }
        for (Mem<?> mem : mems) {
            for (Mem.Write w : mem.writes()) {
                roots.add(w.addr());
                roots.add(w.data());
                roots.add(w.enable());
            }
        }
        for (Check c : m.checks()) {
            roots.addAll(c.reads());
        }
        Set<Bits> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Bits> work = new ArrayDeque<>();
        for (Bits r : roots) {
            uses.merge(r, 1, Integer::sum);
            work.push(r);
        }
        while (!work.isEmpty()) {
            Bits n = work.pop();
            if (n.kind() != Kind.OP || !seen.add(n)) {
                continue;
            }
            for (Bits a : n.args()) {
                uses.merge(a, 1, Integer::sum);
                work.push(a);
            }
        }
        for (Bits r : regs) {
            markIf(r, driver(r));
        }
        for (Bits n : seen) {
            if (n.op() == Op.SLICE && n.param0() == 0 && n.param1() == 0 && !sig.containsKey(n)) {
                Bits a = n.args().get(0);
                if (a.kind() == Kind.OP && a.op() == Op.DSHR && !a.isSigned() && !sig.containsKey(a) && uses.get(a) == 1) {
                    fused.add(a);
                }
            }
        }
    }

    private boolean unnamedSingleUseMux(Bits n) {
        return n.kind() == Kind.OP && n.op() == Op.MUX && !sig.containsKey(n) && uses.getOrDefault(n, 0) == 1;
    }

    /** Marks the MUX tree of a register's next value that leads back to the register (hold) as if/else. */
    private boolean markIf(Bits r, Bits v) {
        if (v == r) {
            return true;
        }
        if (!unnamedSingleUseMux(v)) {
            return false;
        }
        boolean a = markIf(r, v.args().get(1));
        boolean b = markIf(r, v.args().get(2));
        if (a || b) {
            asIf.add(v);
            return true;
        }
        return false;
    }

    // ================================================================== materialisation

    /**
     * Makes sure every node below {@code root} that needs its own wire has one, bottom-up and without
     * deep recursion, so that its assign precedes the statement using it.
     */
    private void prepare(Bits root) {
        if (prepared.contains(root)) {
            return;
        }
        Deque<Bits> stack = new ArrayDeque<>();
        Deque<Integer> next = new ArrayDeque<>();
        stack.push(root);
        next.push(0);
        prepared.add(root);
        while (!stack.isEmpty()) {
            Bits n = stack.peek();
            int i = next.pop();
            List<Bits> args = n.kind() == Kind.OP ? n.args() : List.of();
            if (i < args.size()) {
                next.push(i + 1);
                Bits a = args.get(i);
                if (prepared.add(a)) {
                    stack.push(a);
                    next.push(0);
                }
                continue;
            }
            stack.pop();
            if (n.kind() != Kind.OP || defined.contains(n)) {
                continue;
            }
            if (isNamedOp(n)) {
                define(n, sig.get(n));
            } else if (!plumbing(n.op()) && !asIf.contains(n) && !fused.contains(n) && !inPlace.contains(n) && !sig.containsKey(n)) {
                String t = temp(n, false);
                sig.put(n, t);
                define(n, t);
            }
        }
    }

    private boolean isNamedOp(Bits n) {
        return named.contains(n);
    }

    private void define(Bits n, String name) {
        defined.add(n);
        assigns.add(assign(id(name), expr(n)));
    }

    private static boolean plumbing(Op op) {
        return switch (op) {
            case SLICE, CAT, EXT, AS_UINT, AS_SINT, SHL, SHR -> true;
            default -> false;
        };
    }

    /** A node as a signal of its own (for indexing): its wire, or a fresh temp holding it. */
    private String needSignal(Bits n) {
        List<Seg> segs = new ArrayList<>();
        resolve(n, n.width() - 1, 0, segs, false);
        segs = merge(segs);
        if (segs.size() == 1 && segs.get(0).node != null && segs.get(0).rep == 1 && segs.get(0).lo == 0
                && segs.get(0).hi == sigWidth.get(sig.get(segs.get(0).node)) - 1) {
            Seg s = segs.get(0);
            markUsed(sig.get(s.node), s.hi, s.lo);
            return sig.get(s.node);
        }
        String t = temp(n, false);
        assigns.add(assign(t, render(segs, n.isSigned())));
        return t;
    }

    // ================================================================== bit plumbing

    /** A run of bits: bits hi..lo of a signal (repeated rep times), or constant bits. */
    private static final class Seg {
        final Bits node;
        final BigInteger value;
        final int hi;
        final int lo;
        int rep = 1;

        Seg(Bits node, BigInteger value, int hi, int lo) {
            this.node = node;
            this.value = value;
            this.hi = hi;
            this.lo = lo;
        }

        int width() {
            return (hi - lo + 1) * rep;
        }
    }

    /** The value of a node made of literals and bit plumbing only, else null. */
    private BigInteger constant(Bits n) {
        if (n.kind() == Kind.LIT) {
            return n.litValue();
        }
        if (n.kind() != Kind.OP || !plumbing(n.op()) || sig.containsKey(n)) {
            return null;
        }
        for (Bits a : n.args()) {
            if (constant(a) == null) {
                return null;
            }
        }
        List<Seg> segs = new ArrayList<>();
        resolve(n, n.width() - 1, 0, segs, false);
        segs = merge(segs);
        return segs.size() == 1 && segs.get(0).node == null ? segs.get(0).value : null;
    }

    private static Seg constSeg(BigInteger v, int w) {
        return new Seg(null, v, w - 1, 0);
    }

    /** Appends the segments (most significant first) making bits hi..lo of {@code n}. */
    private void resolve(Bits n, int hi, int lo, List<Seg> out, boolean expandSelf) {
        if (n.kind() == Kind.LIT) {
            BigInteger v = n.litValue().shiftRight(lo).and(BigInteger.ONE.shiftLeft(hi - lo + 1).subtract(BigInteger.ONE));
            out.add(constSeg(v, hi - lo + 1));
            return;
        }
        if (!expandSelf && sig.containsKey(n)) {
            out.add(new Seg(n, null, hi, lo));
            return;
        }
        if (n.kind() != Kind.OP) {
            throw new HdlException("signal " + n.path() + " (created at " + n.loc() + ") is used in module " + m.path()
                    + ", but Verilog can only read a module's own signals and the ports of its direct children");
        }
        Bits a = n.args().isEmpty() ? null : n.args().get(0);
        switch (n.op()) {
            case SLICE -> {
                if (!expandSelf && fused.contains(a)) {
                    String t = temp(n, false);
                    sig.put(n, t);
                    define(n, t);
                    out.add(new Seg(n, null, hi, lo));
                } else {
                    resolve(a, hi + n.param1(), lo + n.param1(), out, false);
                }
            }
            case AS_UINT, AS_SINT -> resolve(a, hi, lo, out, false);
            case EXT -> {
                int wa = a.width();
                if (hi >= wa) {
                    int cnt = hi - Math.max(lo, wa) + 1;
                    if (a.isSigned()) {
                        repeat(a, wa - 1, cnt, out);
                    } else {
                        out.add(constSeg(BigInteger.ZERO, cnt));
                    }
                }
                if (lo < wa) {
                    resolve(a, Math.min(hi, wa - 1), lo, out, false);
                }
            }
            case SHL -> {
                int p = n.param0();
                if (hi >= p) {
                    resolve(a, hi - p, Math.max(lo, p) - p, out, false);
                }
                if (lo < p) {
                    out.add(constSeg(BigInteger.ZERO, Math.min(hi, p - 1) - lo + 1));
                }
            }
            case SHR -> {
                int p = n.param0();
                int wa = a.width();
                if (p >= wa) {
                    if (a.isSigned()) {
                        repeat(a, wa - 1, hi - lo + 1, out);
                    } else {
                        out.add(constSeg(BigInteger.ZERO, hi - lo + 1));
                    }
                } else {
                    resolve(a, hi + p, lo + p, out, false);
                }
            }
            case CAT -> {
                int off = n.width();
                for (Bits part : n.args()) {
                    int pHi = off - 1;
                    int pLo = off - part.width();
                    off = pLo;
                    int h = Math.min(hi, pHi);
                    int l = Math.max(lo, pLo);
                    if (h >= l) {
                        resolve(part, h - pLo, l - pLo, out, false);
                    }
                }
            }
            default -> {
                if (expandSelf) {
                    throw new IllegalStateException("not bit plumbing: " + n.op());
                }
                // a node that prepare() did not reach (should not happen): give it a wire now
                String t = temp(n, false);
                sig.put(n, t);
                define(n, t);
                out.add(new Seg(n, null, hi, lo));
            }
        }
    }

    private void repeat(Bits n, int bit, int count, List<Seg> out) {
        List<Seg> one = new ArrayList<>();
        resolve(n, bit, bit, one, false);
        Seg s = one.get(0);
        if (s.node == null) {
            out.add(constSeg(s.value.signum() == 0 ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(count).subtract(BigInteger.ONE), count));
        } else {
            s.rep = count;
            out.add(s);
        }
    }

    private static List<Seg> merge(List<Seg> in) {
        List<Seg> out = new ArrayList<>();
        for (Seg s : in) {
            Seg p = out.isEmpty() ? null : out.get(out.size() - 1);
            if (p != null && p.node == null && s.node == null) {
                out.set(out.size() - 1, constSeg(p.value.shiftLeft(s.width()).or(s.value), p.width() + s.width()));
            } else if (p != null && p.node != null && p.node == s.node && p.rep == 1 && s.rep == 1 && p.lo == s.hi + 1) {
                out.set(out.size() - 1, new Seg(p.node, null, p.hi, s.lo));
            } else if (p != null && p.node != null && p.node == s.node && p.hi == p.lo && s.hi == s.lo && p.lo == s.lo) {
                Seg r = new Seg(p.node, null, p.hi, p.lo);
                r.rep = p.rep + s.rep;
                out.set(out.size() - 1, r);
            } else {
                out.add(s);
            }
        }
        return out;
    }

    /** Text of merged segments; a signed result gets $signed, a full signed signal read as unsigned gets $unsigned. */
    private String render(List<Seg> segs, boolean signed) {
        if (segs.size() == 1 && segs.get(0).node == null) {
            Seg s = segs.get(0);
            return lit(s.value, s.width(), signed);
        }
        List<String> parts = new ArrayList<>();
        for (Seg s : segs) {
            if (s.node == null) {
                parts.add(lit(s.value, s.width(), false));
                continue;
            }
            String name = sig.get(s.node);
            markUsed(name, s.hi, s.lo);
            int w = sigWidth.get(name);
            String t = s.hi == w - 1 && s.lo == 0 ? id(name) : s.hi == s.lo ? id(name) + "[" + s.hi + "]" : id(name) + "[" + s.hi + ":" + s.lo + "]";
            parts.add(s.rep == 1 ? t : "{" + s.rep + "{" + t + "}}");
        }
        if (parts.size() == 1) {
            Seg s = segs.get(0);
            String t = parts.get(0);
            boolean full = s.rep == 1 && s.lo == 0 && s.hi == sigWidth.get(sig.get(s.node)) - 1;
            boolean srcSigned = full && s.node.isSigned();
            if (signed == srcSigned) {
                return t;
            }
            return (signed ? "$signed(" : "$unsigned(") + t + ")";
        }
        String cat = "{" + String.join(", ", parts) + "}";
        return signed ? "$signed(" + cat + ")" : cat;
    }

    private void markUsed(String name, int hi, int lo) {
        BitSet b = used.get(name);
        if (b != null) {
            b.set(lo, hi + 1);
        }
    }

    /**
     * The value of {@code n} as an operand: exactly its width and signedness. A concatenation of many
     * parts read in several places gets a wire of its own instead of being repeated.
     */
    private String operand(Bits n) {
        List<Seg> segs = new ArrayList<>();
        resolve(n, n.width() - 1, 0, segs, false);
        segs = merge(segs);
        if (segs.size() > 3 && n.kind() == Kind.OP && !sig.containsKey(n) && uses.getOrDefault(n, 0) > 1) {
            String t = temp(n, false);
            assigns.add(assign(t, render(segs, n.isSigned())));
            sig.put(n, t);
            defined.add(n);
            segs = List.of(new Seg(n, null, n.width() - 1, 0));
        }
        return render(segs, n.isSigned());
    }

    /** Bits hi..lo of {@code n}, unsigned. */
    private String bits(Bits n, int hi, int lo) {
        List<Seg> segs = new ArrayList<>();
        resolve(n, hi, lo, segs, false);
        return render(merge(segs), false);
    }

    /** {@code n} sign- or zero-extended (by its signedness) to {@code w} bits, read as signed or unsigned. */
    private String extended(Bits n, int w, boolean asSigned) {
        List<Seg> segs = new ArrayList<>();
        int wa = n.width();
        if (w > wa) {
            if (n.isSigned()) {
                repeat(n, wa - 1, w - wa, segs);
            } else {
                segs.add(constSeg(BigInteger.ZERO, w - wa));
            }
        }
        resolve(n, wa - 1, 0, segs, false);
        return render(merge(segs), asSigned);
    }

    /**
     * A constant of {@code w} bits from its bit pattern {@code v}. A negative signed value is written as
     * the number the Java code gave, {@code (-8'sd3)} rather than {@code 8'shfd}; in parentheses, so that
     * it stays a primary under a unary operator. The most negative value has no positive w-bit
     * counterpart and stays in hex.
     */
    static String lit(BigInteger v, int w, boolean signed) {
        if (signed && v.testBit(w - 1)) {
            BigInteger magnitude = BigInteger.ONE.shiftLeft(w).subtract(v);
            if (magnitude.bitLength() < w) {
                return "(-" + w + "'sd" + magnitude + ")";
            }
        }
        if (w == 1) {
            return "1'" + (signed ? "s" : "") + "b" + v.toString(2);
        }
        return w + "'" + (signed ? "s" : "") + "h" + v.toString(16);
    }

    private static final java.util.regex.Pattern NEGATIVE_LITERAL = java.util.regex.Pattern.compile("\\((-\\d+'sd\\d+)\\)");

    /** A whole right-hand side needs no parentheses around a negative constant. */
    private static String bare(String rhs) {
        java.util.regex.Matcher neg = NEGATIVE_LITERAL.matcher(rhs);
        return neg.matches() ? neg.group(1) : rhs;
    }

    // ================================================================== expressions

    /** Right-hand side of the wire holding OP node {@code n}. */
    private String expr(Bits n) {
        Op op = n.op();
        List<Bits> a = n.args();
        if (plumbing(op)) {
            if (op == Op.SLICE && fused.contains(a.get(0))) {
                return bitSelect(a.get(0));
            }
            List<Seg> segs = new ArrayList<>();
            resolve(n, n.width() - 1, 0, segs, true);
            return render(merge(segs), n.isSigned());
        }
        return switch (op) {
            case ADD -> operand(a.get(0)) + " + " + operand(a.get(1));
            case SUB -> operand(a.get(0)) + " - " + operand(a.get(1));
            case AND -> operand(a.get(0)) + " & " + operand(a.get(1));
            case OR -> operand(a.get(0)) + " | " + operand(a.get(1));
            case XOR -> operand(a.get(0)) + " ^ " + operand(a.get(1));
            case NOT -> "~" + operand(a.get(0));
            case NEG -> "-" + operand(a.get(0));
            case EQ -> operand(a.get(0)) + " == " + operand(a.get(1));
            case NE -> operand(a.get(0)) + " != " + operand(a.get(1));
            // an unsigned value is never below zero: written as a constant, as lint asks
            case LT -> unsignedZero(a.get(1)) ? "1'b0" : operand(a.get(0)) + " < " + operand(a.get(1));
            case LE -> unsignedZero(a.get(0)) ? "1'b1" : operand(a.get(0)) + " <= " + operand(a.get(1));
            case GT -> unsignedZero(a.get(0)) ? "1'b0" : operand(a.get(0)) + " > " + operand(a.get(1));
            case GE -> unsignedZero(a.get(1)) ? "1'b1" : operand(a.get(0)) + " >= " + operand(a.get(1));
            case ANDR -> reduction("&", a.get(0));
            case ORR -> reduction("|", a.get(0));
            case XORR -> reduction("^", a.get(0));
            case MUX -> operand(a.get(0)) + " ? " + operand(a.get(1)) + " : " + operand(a.get(2));
            // the full product fits the result: multiply the operands extended to it (low bits do not depend on sign)
            case MUL -> extended(a.get(0), n.width(), false) + " * " + extended(a.get(1), n.width(), false);
            case DIV, REM -> divRem(n);
            case DSHL -> extended(a.get(0), n.width(), false) + " << " + operand(a.get(1));
            case DSHR -> n.isSigned() ? operand(a.get(0)) + " >>> " + operand(a.get(1)) : operand(a.get(0)) + " >> " + operand(a.get(1));
            case SEL -> select(n);
            case MEM_READ -> memRead(n, a.get(0));
            default -> throw new IllegalStateException("unexpected op " + op);
        };
    }

    /**
     * Division and remainder in a width where nothing overflows (the signed quotient of the most negative
     * dividend by -1 needs one more bit), guarded against a zero divisor.
     */
    /**
     * A reduction; over a single bit it is that bit (unsigned). Verilator 5.006 stops with an internal error
     * ("Reduction over single bit value should have been folded") on some single-bit reductions, so they are
     * written as the bit itself, which means the same.
     */
    private String reduction(String op, Bits x) {
        if (x.width() != 1) {
            return op + operand(x);
        }
        return x.isSigned() ? "$unsigned(" + operand(x) + ")" : operand(x);
    }

    private boolean unsignedZero(Bits x) {
        BigInteger c = constant(x);
        return !x.isSigned() && c != null && c.signum() == 0;
    }

    private String divRem(Bits n) {
        Bits a = n.args().get(0);
        Bits b = n.args().get(1);
        boolean s = n.isSigned();
        int w = n.op() == Op.DIV ? Math.max(a.width() + (s ? 1 : 0), b.width()) : Math.max(a.width(), b.width());
        String x = extended(a, w, s);
        String y = extended(b, w, s);
        String e = "(" + operand(b) + " == " + lit(BigInteger.ZERO, b.width(), s) + ") ? " + lit(BigInteger.ZERO, w, s) + " : "
                + x + (n.op() == Op.DIV ? " / " : " % ") + y;
        if (w == n.width()) {
            return e;
        }
        String full = temp(w, s, false);
        assigns.add(assign(full, e));
        if (w == n.width()) {
            return full;
        }
        markUsed(full, n.width() - 1, 0);
        return full + (n.width() == 1 ? "[0]" : "[" + (n.width() - 1) + ":0]");
    }

    /** Vec element by a hardware index: a ternary chain, 0 past the last element. */
    private String select(Bits n) {
        List<Bits> a = n.args();
        Bits idx = a.get(0);
        int count = a.size() - 1;
        String zero = lit(BigInteger.ZERO, n.width(), n.isSigned());
        if (constant(idx) != null) {
            BigInteger i = constant(idx);
            return i.compareTo(BigInteger.valueOf(count)) < 0 ? operand(a.get(i.intValue() + 1)) : zero;
        }
        int wi = idx.width();
        long reach = wi >= 31 ? Long.MAX_VALUE : 1L << wi;
        int items = (int) Math.min(count, reach);
        String ix = operand(idx);
        StringBuilder sb = new StringBuilder();
        boolean last = reach <= count;
        for (int i = 0; i < items; i++) {
            if (last && i == items - 1) {
                sb.append("\n        ").append(operand(a.get(i + 1)));
                return sb.toString();
            }
            sb.append("\n        ").append(ix).append(" == ").append(lit(BigInteger.valueOf(i), wi, false)).append(" ? ")
                    .append(operand(a.get(i + 1))).append(" :");
        }
        sb.append("\n        ").append(zero);
        return sb.toString();
    }

    /** Bit 0 of {@code x >> amt}: a bit-select, 0 when the amount passes the top bit. */
    private String bitSelect(Bits dshr) {
        Bits x = dshr.args().get(0);
        Bits amt = dshr.args().get(1);
        int w = x.width();
        if (constant(amt) != null) {
            BigInteger k = constant(amt);
            return k.compareTo(BigInteger.valueOf(w)) < 0 ? bits(x, k.intValue(), k.intValue()) : "1'b0";
        }
        if (w == 1) {
            return "(" + operand(amt) + " == " + lit(BigInteger.ZERO, amt.width(), false) + ") ? " + operand(x) + " : 1'b0";
        }
        String xs = needSignal(x);
        int iw = 64 - Long.numberOfLeadingZeros(w - 1L);
        String sel = id(xs) + "[" + index(amt, iw) + "]";
        return guard(amt, w, sel, "1'b0");
    }

    /** The low {@code iw} bits of an unsigned index, zero-extended when narrower. */
    private String index(Bits idx, int iw) {
        int wa = idx.width();
        if (wa == iw) {
            return operand(idx);
        }
        if (wa > iw) {
            return bits(idx, iw - 1, 0);
        }
        return extended(idx, iw, false);
    }

    /** {@code sel} when {@code idx < limit}, else {@code zero}; no test when the index cannot reach the limit. */
    private String guard(Bits idx, long limit, String sel, String zero) {
        int wa = idx.width();
        if (wa < 63 && (1L << wa) <= limit) {
            return sel;
        }
        return "(" + operand(idx) + " < " + lit(BigInteger.valueOf(limit), wa, false) + ") ? " + sel + " : " + zero;
    }

    /** A read of {@code reader}'s memory at {@code addr}: 0 past the end. */
    private String memRead(Bits reader, Bits addr) {
        Mem<?> mem = reader.mem();
        if (mem.owner() != m || !m.mems().contains(mem)) {
            throw new HdlException("memory " + mem.path() + " is read in module " + m.path() + " (at " + reader.loc()
                    + "); Verilog can only read a memory inside the module that declares it");
        }
        String zero = lit(BigInteger.ZERO, reader.width(), reader.isSigned());
        if (constant(addr) != null) {
            BigInteger k = constant(addr);
            if (k.compareTo(BigInteger.valueOf(mem.depth())) >= 0) {
                return zero;
            }
            markUsed(mem.name(), 0, 0);
            return id(mem.name()) + "[" + k + "]";
        }
        markUsed(mem.name(), 0, 0);
        return guard(addr, mem.depth(), id(mem.name()) + "[" + index(addr, mem.addrWidth()) + "]", zero);
    }

    // ================================================================== registers and memories

    private void registers() {
        List<String> resets = new ArrayList<>();
        List<String> nexts = new ArrayList<>();
        List<String> plain = new ArrayList<>();
        for (Bits r : regs) {
            Bits d = driver(r);
            if (r.resetValue() != null) {
                resets.add(nonBlocking("      ", id(r.name()), value(r.resetValue()).text()));
                next(nexts, "      ", r, d);
            } else {
                next(plain, "    ", r, d);
            }
        }
        if (!resets.isEmpty()) {
            markUsed("reset", 0, 0);
            seq.add("    if (reset) begin");
            seq.addAll(resets);
            if (nexts.isEmpty()) {
                seq.add("    end");
            } else {
                seq.add("    end else begin");
                seq.addAll(nexts);
                seq.add("    end");
            }
        }
        seq.addAll(plain);
        for (Bits s : syncReads) {
            Bits addr = s.args().get(0);
            Bits en = s.args().get(1);
            prepare(addr);
            String rd = memRead(s, addr);
            cond(seq, en, null, id(s.name()) + " <= " + rd + ";");
        }
    }

    private static String nonBlocking(String ind, String lhs, String rhs) {
        return ind + lhs + " <=" + (rhs.startsWith("\n") ? "" : " ") + bare(rhs) + ";";
    }

    /** Register update, the hold paths of its MUX tree written as if/else (a held register is not assigned). */
    private void next(List<String> out, String ind, Bits r, Bits v) {
        if (v == r) {
            return;
        }
        if (!asIf.contains(v)) {
            out.add(nonBlocking(ind, id(r.name()), value(v).text()));
            return;
        }
        ifChain(out, ind, r, v, false);
    }

    private void ifChain(List<String> out, String ind, Bits r, Bits v, boolean elseIf) {
        Bits c = v.args().get(0);
        Bits a = v.args().get(1);
        Bits b = v.args().get(2);
        Val cv = value(c);
        String cond = cv.text();
        Bits then = a;
        Bits other = b;
        if (a == r) {
            cond = "!" + cv.paren();
            then = b;
            other = r;
        }
        out.add(ind + (elseIf ? "end else if (" : "if (") + cond + ") begin");
        next(out, ind + "  ", r, then);
        if (other != r) {
            if (asIf.contains(other)) {
                ifChain(out, ind, r, other, true);
                return;
            }
            out.add(ind + "end else begin");
            next(out, ind + "  ", r, other);
        }
        out.add(ind + "end");
    }

    /** {@code stmt} under enable {@code en} (skipped when en is constant 0) and an optional extra test. */
    private void cond(List<String> out, Bits en, String extra, String stmt) {
        List<String> tests = new ArrayList<>();
        if (constant(en) != null) {
            if (constant(en).signum() == 0) {
                return;
            }
        } else {
            Val v = value(en);
            tests.add(extra == null ? v.text() : v.paren());
        }
        if (extra != null) {
            tests.add(tests.isEmpty() ? extra : "(" + extra + ")");
        }
        guarded(out, "    ", tests, stmt);
    }

    /** {@code stmt} at indent {@code ind}, inside {@code if (t1 && t2 ...)} unless there is no test. */
    private static void guarded(List<String> out, String ind, List<String> tests, String stmt) {
        if (tests.isEmpty()) {
            out.add(ind + stmt);
        } else {
            out.add(ind + "if (" + String.join(" && ", tests) + ") begin");
            out.add(ind + "  " + stmt);
            out.add(ind + "end");
        }
    }

    private void memories() {
        for (Mem<?> mem : mems) {
            for (Mem.Write w : mem.writes()) {
                prepare(w.addr());
                Bits addr = w.addr();
                String target;
                String extra = null;
                if (constant(addr) != null) {
                    BigInteger k = constant(addr);
                    if (k.compareTo(BigInteger.valueOf(mem.depth())) >= 0) {
                        continue;
                    }
                    target = id(mem.name()) + "[" + k + "]";
                } else {
                    target = id(mem.name()) + "[" + index(addr, mem.addrWidth()) + "]";
                    int wa = addr.width();
                    if (!(wa < 63 && (1L << wa) <= mem.depth())) {
                        extra = operand(addr) + " < " + lit(BigInteger.valueOf(mem.depth()), wa, false);
                    }
                }
                if (constant(w.enable()) != null && constant(w.enable()).signum() == 0) {
                    continue;
                }
                cond(seq, w.enable(), extra, nonBlocking("", target, value(w.data()).text()));
            }
            BigInteger[] contents = mem.initContents();
            boolean anyZero = contents == null;
            if (contents != null) {
                for (BigInteger v : contents) {
                    anyZero |= v.signum() == 0;
                }
            }
            if (anyZero) {
                String i = loopVar();
                init.add("    for (" + i + " = 0; " + i + " < " + mem.depth() + "; " + i + " = " + i + " + 1) begin");
                init.add("      " + id(mem.name()) + "[" + i + "] = " + lit(BigInteger.ZERO, mem.width(), mem.isSigned()) + ";");
                init.add("    end");
            }
            if (contents != null) {
                for (int k = 0; k < contents.length; k++) {
                    if (contents[k].signum() != 0) {
                        init.add("    " + id(mem.name()) + "[" + k + "] = " + bare(lit(contents[k], mem.width(), mem.isSigned())) + ";");
                    }
                }
            }
        }
    }

    private String loopVar;

    private String loopVar() {
        if (loopVar == null) {
            loopVar = fresh("_init_i");
            memDecls.add(new Decl(loopVar, "integer " + loopVar + ";", Role.UNTRACKED));
        }
        return loopVar;
    }

    // ================================================================== assertions and prints

    /**
     * {@code Hdl.check} as {@code $fatal} and {@code Hdl.printf} as {@code $write}, at the clock edge
     * while reset is low, in program order; the enclosing when-conditions are their enables.
     */
    private void checks() {
        for (Check c : m.checks()) {
            List<String> tests = new ArrayList<>();
            if (c.enable() != null && !addTest(tests, c.enable(), false)) {
                continue;
            }
            if (c.condition() != null && !addTest(tests, c.condition(), true)) {
                continue;
            }
            String call = c.isAssertion()
                    ? "$fatal(1, " + verilogFormat("assertion failed in %m (" + c.loc() + "): ", c.format()) + ");"
                    : "$write(" + verilogFormat("", c.format()) + ");";
            guarded(checkStmts, "      ", tests, call);
        }
        if (!m.checks().isEmpty()) {
            markUsed("clk", 0, 0);
            markUsed("reset", 0, 0);
        }
    }

    /** Adds the test that {@code b} is high ({@code negate}: low); false when that can never hold. */
    private boolean addTest(List<String> tests, Bits b, boolean negate) {
        BigInteger k = constant(b);
        if (k != null) {
            return (k.signum() != 0) != negate;
        }
        Val v = value(b);
        tests.add(negate ? "!" + v.paren() : v.paren());
        return true;
    }

    /** A Verilog string literal for {@code prefix} + the format, then its arguments: {@code "x=%0d\n", x}. */
    private String verilogFormat(String prefix, Format f) {
        StringBuilder text = new StringBuilder("\"").append(prefix.replace("\"", "\\\""));
        List<String> args = new ArrayList<>();
        for (Format.Part p : f.parts()) {
            if (p.conversion() == 0) {
                text.append(escape(p.text()));
                continue;
            }
            // %0: no padding to the width, as the simulator prints
            text.append(switch (p.conversion()) {
                case 'd' -> "%0d";
                case 'x' -> "%0h";
                default -> "%0b";
            });
            prepare(p.arg());
            args.add(operand(p.arg()));
        }
        text.append('"');
        for (String a : args) {
            text.append(", ").append(a);
        }
        return text.toString();
    }

    /** Text inside a Verilog string: escapes, {@code %%}, and octal escapes for other bytes (UTF-8). */
    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            switch (c) {
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '%' -> sb.append("%%");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        sb.append('\\').append(String.format("%03o", c));
                    } else {
                        sb.append((char) c);
                    }
                }
            }
        }
        return sb.toString();
    }

    // ================================================================== instances

    private void instances() {
        for (Module c : m.children()) {
            Info ci = children.get(c);
            List<String> pins = new ArrayList<>();
            if (ci.clocked()) {
                pins.add(".clk(clk)");
                pins.add(".reset(reset)");
                markUsed("clk", 0, 0);
                markUsed("reset", 0, 0);
            }
            for (Bits p : c.ports()) {
                String w = sig.get(p);
                if (p.kind() == Kind.INPUT) {
                    markUsed(w, p.width() - 1, 0);
                }
                pins.add("." + id(p.name()) + "(" + id(w) + ")");
            }
            List<String> lines = new ArrayList<>();
            List<Waiver> ws = waivers(new Decl(c.instanceName(), "", Role.UNTRACKED));
            lines.addAll(waiverLines(ws, true));
            if (pins.isEmpty()) {
                lines.add("  " + ci.name() + " " + id(c.instanceName()) + " ();");
            } else {
                lines.add("  " + ci.name() + " " + id(c.instanceName()) + " (");
                for (int i = 0; i < pins.size(); i++) {
                    lines.add("    " + pins.get(i) + (i + 1 < pins.size() ? "," : ""));
                }
                lines.add("  );");
            }
            lines.addAll(waiverLines(ws, false));
            insts.add(String.join("\n", lines));
        }
    }

    // ================================================================== text

    /** A targeted {@code lint_off} around one declaration and the comment saying why it is there. */
    private record Waiver(String rule, String why) {
    }

    /**
     * Lint waivers exist for two things only, each written with a comment saying why: bits that are
     * really not read (an unused child output, an unread input, a partly read bus) and names that
     * Verilator flags as C++ keywords. Dead logic never needs one: it is not emitted at all.
     */
    private List<Waiver> waivers(Decl d) {
        List<Waiver> out = new ArrayList<>();
        BitSet read = used.get(d.name());
        if (d.role() != Role.UNTRACKED && read != null && read.cardinality() < sigWidth.get(d.name())) {
            out.add(new Waiver("UNUSEDSIGNAL", unread(d, read, sigWidth.get(d.name()))));
        }
        if (Idents.isCppKeyword(d.name())) {
            out.add(new Waiver("SYMRSVDWORD", d.name() + " is a C++ keyword: legal Verilog, but Verilator warns about it"));
        }
        return out;
    }

    /** Why some bits of {@code d} are not read, naming the bits. */
    private static String unread(Decl d, BitSet read, int width) {
        String subject = d.role() == Role.INPUT ? "input " + d.subject() : d.subject();
        if (read.isEmpty()) {
            return switch (d.role()) {
                case CHILD_OUTPUT -> subject + " is not used by this module";
                case RESET -> "reset is not used: no register of this module has a reset value";
                case CLOCK -> "clk is not used: nothing in this module changes at the clock edge";
                case INPUT -> subject + " is not read by this module";
                default -> subject + " is not read: its uses here fold to constants";
            };
        }
        List<String> ranges = new ArrayList<>();
        for (int lo = read.nextClearBit(0); lo < width; lo = read.nextClearBit(lo)) {
            int next = read.nextSetBit(lo);
            int hi = (next < 0 ? width : next) - 1;
            ranges.add(0, hi == lo ? "[" + lo + "]" : "[" + hi + ":" + lo + "]");
            lo = hi + 1;
        }
        String bits = "bits " + String.join(", ", ranges) + " of " + subject;
        return bits + (d.role() == Role.CHILD_OUTPUT ? " are not used by this module" : " are not read: this module uses only part of it");
    }

    /** The waiver lines around a declaration or an instance: comments and lint_off before, lint_on after. */
    private static List<String> waiverLines(List<Waiver> ws, boolean before) {
        List<String> out = new ArrayList<>();
        for (Waiver w : ws) {
            if (before) {
                out.add("  // " + w.why());
            }
        }
        for (Waiver w : ws) {
            out.add("  /* verilator " + (before ? "lint_off " : "lint_on ") + w.rule() + " */");
        }
        return out;
    }

    private void decls(StringBuilder sb, List<Decl> ds, boolean isPorts) {
        for (int i = 0; i < ds.size(); i++) {
            Decl d = ds.get(i);
            List<Waiver> ws = waivers(d);
            waiverLines(ws, true).forEach(l -> sb.append(l).append('\n'));
            sb.append("  ").append(d.text());
            if (isPorts && i + 1 < ds.size()) {
                sb.append(',');
            }
            sb.append('\n');
            waiverLines(ws, false).forEach(l -> sb.append(l).append('\n'));
        }
    }

    private String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("// Generated by FlitKit from ").append(m.getClass().getName()).append(". Do not edit.\n");
        if (ports.isEmpty()) {
            sb.append("module ").append(NAME_PLACEHOLDER).append(";\n");
        } else {
            sb.append("module ").append(NAME_PLACEHOLDER).append(" (\n");
            decls(sb, ports, true);
            sb.append(");\n");
        }
        section(sb, "registers", () -> decls(sb, regDecls, false), !regDecls.isEmpty());
        section(sb, "memories", () -> decls(sb, memDecls, false), !memDecls.isEmpty());
        section(sb, "wires", () -> decls(sb, wireDecls, false), !wireDecls.isEmpty());
        section(sb, "combinational logic", () -> assigns.forEach(s -> sb.append("  ").append(s).append('\n')), !assigns.isEmpty());

        section(sb, "registers and memory writes", () -> {
            sb.append("  always @(posedge clk) begin\n");
            seq.forEach(s -> sb.append(s).append('\n'));
            sb.append("  end\n");
        }, !seq.isEmpty());
        section(sb, "assertions and prints (Hdl.check, Hdl.printf): simulation only", () -> {
            sb.append("`ifndef SYNTHESIS\n  always @(posedge clk) begin\n    if (!reset) begin\n");
            checkStmts.forEach(s -> sb.append(s).append('\n'));
            sb.append("    end\n  end\n`endif\n");
        }, !checkStmts.isEmpty());
        section(sb, "initial contents", () -> {
            sb.append("  initial begin\n");
            init.forEach(s -> sb.append(s).append('\n'));
            sb.append("  end\n");
        }, !init.isEmpty());
        section(sb, "instances", () -> insts.forEach(s -> sb.append(s).append('\n')), !insts.isEmpty());
        sb.append("endmodule\n");
        return sb.toString();
    }

    private static void section(StringBuilder sb, String title, Runnable body, boolean present) {
        if (!present) {
            return;
        }
        sb.append("\n  // ").append(title).append('\n');
        body.run();
    }
}
