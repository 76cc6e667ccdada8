package org.flitkit.hdl;

import java.math.BigInteger;
import java.util.List;
import java.util.function.Supplier;

/**
 * The DSL vocabulary, meant for {@code import static org.flitkit.hdl.Hdl.*}: types ({@code UInt(8)}),
 * hardware ({@code input}, {@code output}, {@code wire}, {@code reg}, {@code mem}, {@code instance}),
 * literals, {@code when}/{@code switchOn}, the multiplexers, delays and concatenations of Chisel's util
 * (also under their Chisel names {@code Mux1H}, {@code MuxLookup}, {@code ShiftRegister}), and the
 * simulation checks {@code check} (Chisel's assert) and {@code printf}.
 */
public final class Hdl {
    /** Widest signal accepted (the spec asks for at least 1024 bits). */
    public static final int MAX_WIDTH = 4096;

    private Hdl() {
    }

    // ------------------------------------------------------------------ types

    public static UInt UInt(int width) {
        return new UInt(width);
    }

    public static SInt SInt(int width) {
        return new SInt(width);
    }

    public static Bool Bool() {
        return new Bool();
    }

    /** A vector type of {@code n} elements, each made by {@code element}. */
    public static <T extends Data> Vec<T> Vec(int n, Supplier<T> element) {
        if (n < 1) {
            throw new HdlException("Vec size " + n + " at " + SrcLoc.here() + " must be at least 1");
        }
        List<T> l = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(element.get());
        }
        return new Vec<>(l, element);
    }

    /** A vector over existing hardware, for indexing by a hardware value (Chisel's VecInit). */
    @SafeVarargs
    public static <T extends Data> Vec<T> vecOf(T... elems) {
        return new Vec<>(List.of(elems), null);
    }

    public static <T extends Data> Vec<T> vecOf(List<T> elems) {
        return new Vec<>(elems, null);
    }

    /** Marks a bundle field as running against the bundle's direction (e.g. {@code ready}). */
    public static <T extends Data> T flipped(T d) {
        d.flipped = !d.flipped;
        return d;
    }

    // ------------------------------------------------------------------ hardware

    public static <T extends Data> T input(T type) {
        return bind(type, Kind.INPUT, "input");
    }

    public static <T extends Data> T output(T type) {
        return bind(type, Kind.OUTPUT, "output");
    }

    public static <T extends Data> T wire(T type) {
        return bind(type, Kind.WIRE, "wire");
    }

    /** A wire that takes {@code dflt} wherever no connect applies. */
    public static <T extends Data> T wireDefault(T type, Data dflt) {
        T w = wire(type);
        zipLeaves(w, dflt, "wireDefault", (leaf, v) -> leaf.dflt = fitted(leaf, v));
        return w;
    }

    public static <T extends Data> T wireDefault(T type, long dflt) {
        T w = wire(type);
        for (Bits leaf : w.leaves()) {
            leaf.dflt = litOf(leaf, dflt);
        }
        return w;
    }

    /** A register without reset. */
    public static <T extends Data> T reg(T type) {
        return bind(type, Kind.REG, "reg");
    }

    /** A register reset (synchronously) to {@code init} in every leaf. */
    public static <T extends Data> T regInit(T type, long init) {
        T r = reg(type);
        for (Bits leaf : r.leaves()) {
            leaf.init = litOf(leaf, init);
        }
        return r;
    }

    public static <T extends Data> T regInit(T type, Data init) {
        T r = reg(type);
        zipLeaves(r, init, "regInit", (leaf, v) -> leaf.init = fitted(leaf, v));
        return r;
    }

    /**
     * A register of {@code type} whose fields reset as {@code resets} says: every leaf resets to 0, then
     * {@code resets} runs on the register and may give fields other values with {@code init}, e.g.
     * {@code regInit(new Hdr(), r -> r.len.init(4))} (docs/dsl.md "Registers of bundle type").
     */
    public static <T extends Data> T regInit(T type, java.util.function.Consumer<? super T> resets) {
        T r = regInit(type, 0);
        resets.accept(r);
        return r;
    }

    /**
     * {@code x} delayed by one cycle (no reset). {@code x} may be a bundle or vector: each leaf gets a
     * register; its type is copied as {@code org.flitkit.hdl.lib.Types.cloneType} does (bundles whose
     * constructor takes arguments: {@code regNext(x, () -> new Hdr(p))}).
     */
    public static <T extends Data> T regNext(T x) {
        return regNext(x, freshTypeOf(x));
    }

    /** {@code x} delayed by one cycle in a register of type {@code type.get()} (no reset). */
    public static <T extends Data> T regNext(T x, Supplier<? extends T> type) {
        T r = reg(type.get());
        r.assign(x);
        return r;
    }

    /** {@code x} delayed by one cycle, {@code init} after reset (in every leaf). */
    public static <T extends Data> T regNext(T x, long init) {
        T r = regInit(freshTypeOf(x).get(), init);
        r.assign(x);
        return r;
    }

    /** A register that loads {@code x} when {@code enable} is high and holds otherwise. */
    public static <T extends Data> T regEnable(T x, Bool enable) {
        T r = reg(freshTypeOf(x).get());
        when(enable, () -> r.assign(x));
        return r;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Data> Supplier<T> freshTypeOf(T x) {
        if (x instanceof Bits b) {
            return () -> (T) b.cloneType();
        }
        return org.flitkit.hdl.lib.Types.supplierOf(x);
    }

    /**
     * Registers {@code gtkwaveFilter} (GTKWave translate filter text) for {@code signal}, hardware of the
     * module under construction: save files written for a dump show its values through the filter
     * ({@link Module#waveFilters()}; docs/dsl.md "State names in GTKWave").
     */
    public static void waveFilter(Bits signal, String gtkwaveFilter) {
        Module m = Builder.get("waveFilter").current();
        if (signal.owner != m) {
            throw new HdlException("waveFilter at " + SrcLoc.here() + ": " + signal.path()
                    + " is not hardware of the module under construction " + m.path());
        }
        m.waveFilters.add(new Module.WaveFilter(signal, gtkwaveFilter));
    }

    /** Chisel's {@code ShiftRegister}: {@code x} delayed by {@code n} registers ({@code x} itself when n is 0). */
    public static <T extends Bits> T ShiftRegister(T x, int n) {
        return ShiftRegister(x, n, null);
    }

    /** {@code x} delayed by {@code n} registers that all shift only while {@code enable} is high. */
    public static <T extends Bits> T ShiftRegister(T x, int n, Bool enable) {
        if (n < 0) {
            throw new HdlException("ShiftRegister at " + SrcLoc.here() + ": " + n + " stages; the delay must not be negative");
        }
        T out = x;
        for (int i = 0; i < n; i++) {
            out = enable == null ? regNext(out) : regEnable(out, enable);
        }
        return out;
    }

    public static <T extends Bits> Mem<T> mem(int depth, T elementType) {
        Module m = Builder.get("mem").current();
        Mem<T> mem = new Mem<>(depth, elementType, m);
        m.mems.add(mem);
        return mem;
    }

    /** Finishes a child module created with {@code new} inside the current module and returns it. */
    public static <M extends Module> M instance(M child) {
        Builder b = Builder.get("instance");
        Module top = b.current();
        if (top != child) {
            throw new HdlException("instance(" + child.getClass().getSimpleName() + ") at " + SrcLoc.here() + ": module "
                    + top.getClass().getSimpleName() + " created at " + top.loc
                    + " is still open; pass every new module to instance() right after creating it");
        }
        if (child.parent == null) {
            throw new HdlException("instance() at " + SrcLoc.here() + " is for child modules; the top is finished by Circuit.elaborate()");
        }
        b.stack.pop();
        child.closed = true;
        Namer.name(child);
        return child;
    }

    /** Same as {@link #instance(Module)} with an explicit instance name. */
    public static <M extends Module> M instance(String name, M child) {
        M m = instance(child);
        m.instName = name;
        return m;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Data> T bind(T d, Kind k, String what) {
        Builder b = Builder.get(what);
        Module m = b.current();
        if (d.owner != null || !d.leaves().stream().allMatch(l -> l.kind == Kind.TYPE)) {
            throw new HdlException(what + "() at " + SrcLoc.here() + ": " + d.shape() + " created at " + d.loc
                    + " is already hardware; pass a fresh type such as UInt(8) or new MyBundle()");
        }
        // a bundle's fields were made where the bundle class is written; as hardware they are declared here
        SrcLoc at = SrcLoc.here();
        for (Bits leaf : d.leaves()) {
            Kind lk = k;
            if (k.isPort() && leaf.flippedWithin(d)) {
                lk = k == Kind.INPUT ? Kind.OUTPUT : Kind.INPUT;
            }
            leaf.kind = lk;
            for (Data x = leaf; x != null; x = x == d ? null : x.aggParent) {
                x.owner = m;
                x.loc = at;
            }
            (lk.isPort() ? m.ports : lk == Kind.REG ? m.regs : m.wires).add(leaf);
        }
        return (T) d;
    }

    private static void zipLeaves(Data a, Data b, String what, java.util.function.BiConsumer<Bits, Bits> f) {
        List<Bits> la = a.leaves();
        List<Bits> lb = b.leaves();
        if (la.size() != lb.size()) {
            throw new HdlException(what + " at " + SrcLoc.here() + ": " + b.shape() + " does not match " + a.shape());
        }
        for (int i = 0; i < la.size(); i++) {
            f.accept(la.get(i), lb.get(i));
        }
    }

    private static Bits fitted(Bits leaf, Bits v) {
        v.requireHardware(SrcLoc.here());
        if (v.isSigned() != leaf.isSigned() || v.width > leaf.width) {
            throw new HdlException("at " + SrcLoc.here() + ": " + v.shape() + " " + v.describe() + " does not fit "
                    + leaf.shape() + " " + leaf.path());
        }
        return v.extendTo(leaf.width);
    }

    // ------------------------------------------------------------------ literals

    /** Unsigned literal of an explicit width (error if it does not fit). */
    public static UInt lit(long value, int width) {
        return (UInt) litBits(width == 1 ? new Bool() : new UInt(width), checkFits(BigInteger.valueOf(value), width, false, "literal"));
    }

    public static UInt lit(BigInteger value, int width) {
        return (UInt) litBits(width == 1 ? new Bool() : new UInt(width), checkFits(value, width, false, "literal"));
    }

    /** Unsigned literal of the smallest width that holds it. */
    public static UInt lit(long value) {
        if (value < 0) {
            throw new HdlException("unsigned literal " + value + " at " + SrcLoc.here() + " is negative; use slit()");
        }
        return lit(value, Math.max(1, 64 - Long.numberOfLeadingZeros(value)));
    }

    /** Signed literal of an explicit width. */
    public static SInt slit(long value, int width) {
        return (SInt) litBits(new SInt(width), checkFits(BigInteger.valueOf(value), width, true, "literal"));
    }

    public static Bool bool(boolean v) {
        return (Bool) litBits(new Bool(), v ? BigInteger.ONE : BigInteger.ZERO);
    }

    public static Bool TRUE() {
        return bool(true);
    }

    public static Bool FALSE() {
        return bool(false);
    }

    /** A literal of {@code like}'s type and width. */
    static Bits litOf(Bits like, long v) {
        return litBits(like.sameKind(like.width), checkFits(BigInteger.valueOf(v), like.width, like.isSigned(), "value"));
    }

    /** A literal of {@code like}'s signedness, as narrow as the value allows (operand of an operation). */
    static Bits litFor(Bits like, long v) {
        if (!like.isSigned() && v < 0) {
            throw new HdlException("negative value " + v + " at " + SrcLoc.here() + " used with unsigned " + like.describe());
        }
        int w = like.isSigned() ? 65 - Long.numberOfLeadingZeros(v < 0 ? ~v : v) : Math.max(1, 64 - Long.numberOfLeadingZeros(v));
        return litBits(like.sameKind(w), checkFits(BigInteger.valueOf(v), w, like.isSigned(), "value"));
    }

    static Bits litBits(Bits proto, BigInteger value) {
        proto.kind = Kind.LIT;
        proto.lit = value.signum() < 0 ? value.add(BigInteger.ONE.shiftLeft(proto.width)) : value;
        return proto;
    }

    /** The unsigned bit pattern of {@code v} in {@code w} bits, or an error naming what did not fit. */
    static BigInteger checkFits(BigInteger v, int w, boolean signed, String what) {
        BigInteger min = signed ? BigInteger.ONE.shiftLeft(w - 1).negate() : BigInteger.ZERO;
        BigInteger max = signed ? BigInteger.ONE.shiftLeft(w - 1).subtract(BigInteger.ONE) : BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw new HdlException(what + " " + v + " at " + SrcLoc.here() + " does not fit in " + w + " bits "
                    + (signed ? "signed" : "unsigned") + " (range " + min + ".." + max + ")");
        }
        return v.signum() < 0 ? v.add(BigInteger.ONE.shiftLeft(w)) : v;
    }

    static BigInteger signedValue(BigInteger bits, int w) {
        return bits.testBit(w - 1) ? bits.subtract(BigInteger.ONE.shiftLeft(w)) : bits;
    }

    // ------------------------------------------------------------------ multiplexers and bit plumbing

    /** Two-way multiplexer; the result is as wide as the wider input. */
    @SuppressWarnings("unchecked")
    public static <T extends Bits> T mux(Bool sel, T whenTrue, T whenFalse) {
        whenTrue.requireSameSign(whenFalse, Op.MUX);
        int w = Math.max(whenTrue.width, whenFalse.width);
        Bits proto = whenTrue.width >= whenFalse.width ? whenTrue.sameKind(w) : whenFalse.sameKind(w);
        return (T) Bits.node(proto, Op.MUX, 0, 0, sel, whenTrue.extendTo(w), whenFalse.extendTo(w));
    }

    public static UInt mux(Bool sel, UInt whenTrue, long whenFalse) {
        return mux(sel, whenTrue, (UInt) Hdl.litFor(whenTrue, whenFalse));
    }

    /** Concatenation; the first argument is the most significant. */
    public static UInt cat(Bits... parts) {
        if (parts.length == 0) {
            throw new HdlException("cat() of nothing at " + SrcLoc.here());
        }
        if (parts.length == 1) {
            return parts[0].asUInt();
        }
        int w = 0;
        for (Bits p : parts) {
            w += p.width;
        }
        return Bits.node(new UInt(w), Op.CAT, 0, 0, parts.clone());
    }

    public static UInt cat(List<? extends Bits> parts) {
        return cat(parts.toArray(new Bits[0]));
    }

    /** {@code x} repeated {@code n} times (Chisel's Fill). */
    public static UInt fill(int n, Bits x) {
        if (n < 1) {
            throw new HdlException("fill(" + n + ") at " + SrcLoc.here() + ": count must be at least 1");
        }
        Bits[] parts = new Bits[n];
        java.util.Arrays.fill(parts, x);
        return cat(parts);
    }

    /** The value of the first asserted select; the last value when none is (Chisel's PriorityMux). */
    public static <T extends Bits> T priorityMux(List<Bool> sels, List<T> values) {
        if (sels.isEmpty() || sels.size() != values.size()) {
            throw new HdlException("priorityMux at " + SrcLoc.here() + ": " + sels.size() + " selects for " + values.size() + " values");
        }
        T out = values.get(values.size() - 1);
        for (int i = values.size() - 2; i >= 0; i--) {
            out = mux(sels.get(i), values.get(i), out);
        }
        return out;
    }

    /**
     * Chisel's {@code reduceTree}: {@code op} over {@code xs} as a balanced tree, about log2(n) deep. A
     * loop {@code acc = op(acc, x)} makes a chain n deep: as generated Java, HotSpot's C2 refuses to
     * compile an expression a few hundred operations deep (the method then runs in C1 code), and as
     * Verilog it is the slow path synthesis has to rebalance.
     */
    public static <T> T reduceTree(List<T> xs, java.util.function.BinaryOperator<T> op) {
        if (xs.isEmpty()) {
            throw new HdlException("reduceTree at " + SrcLoc.here() + ": no values to reduce");
        }
        List<T> level = xs;
        while (level.size() > 1) {
            List<T> next = new java.util.ArrayList<>((level.size() + 1) / 2);
            for (int i = 0; i + 1 < level.size(); i += 2) {
                next.add(op.apply(level.get(i), level.get(i + 1)));
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            level = next;
        }
        return level.get(0);
    }

    /** True when any of {@code bs} is (false for none), as a balanced tree ({@link #reduceTree}). */
    public static Bool orAll(List<Bool> bs) {
        return bs.isEmpty() ? FALSE() : reduceTree(bs, Bool::or);
    }

    /** OR of the values whose select is high; selects are expected one-hot (Chisel's Mux1H). */
    @SuppressWarnings("unchecked")
    public static <T extends Bits> T Mux1H(List<Bool> sels, List<T> values) {
        if (sels.isEmpty() || sels.size() != values.size()) {
            throw new HdlException("Mux1H at " + SrcLoc.here() + ": " + sels.size() + " selects for " + values.size() + " values");
        }
        List<Bits> terms = new java.util.ArrayList<>(sels.size());
        for (int i = 0; i < sels.size(); i++) {
            T v = values.get(i);
            Bits zero = litBits(v.sameKind(v.width), BigInteger.ZERO);
            terms.add(mux(sels.get(i), v, (T) zero));
        }
        return (T) reduceTree(terms, Hdl::orBits);
    }


    /** Chisel's {@code Mux1H(sel: UInt, in)}: bit i of {@code sel} selects {@code values.get(i)}. */
    public static <T extends Bits> T Mux1H(UInt sel, List<T> values) {
        List<Bool> sels = new java.util.ArrayList<>(sel.width);
        for (int i = 0; i < sel.width; i++) {
            sels.add(sel.bit(i));
        }
        return Mux1H(sels, values);
    }

    /**
     * Chisel's {@code MuxLookup}: the value whose key equals {@code key}, {@code dflt} when none does.
     * Keys are constants; each must fit {@code key}'s width (a key that cannot match is an error).
     */
    public static <T extends Bits> T MuxLookup(Bits key, T dflt, java.util.Map<? extends Number, ? extends T> mapping) {
        // sorted by key: the hardware must not depend on the map's iteration order
        java.util.TreeMap<Long, T> byKey = new java.util.TreeMap<>();
        mapping.forEach((k, v) -> byKey.put(k.longValue(), v));
        List<Bool> sels = new java.util.ArrayList<>();
        List<T> values = new java.util.ArrayList<>();
        byKey.forEach((k, v) -> {
            sels.add(key.eq(k));
            values.add(v);
        });
        sels.add(TRUE());
        values.add(dflt);
        return priorityMux(sels, values);
    }

    private static Bits orBits(Bits a, Bits b) {
        int w = Math.max(a.width, b.width);
        return Bits.node(a.width >= b.width ? a.sameKind(w) : b.sameKind(w), Op.OR, 0, 0, a.extendTo(w), b.extendTo(w));
    }

    // ------------------------------------------------------------------ conditional connection

    /** Connections inside {@code body} apply only while {@code cond} is high (last connect wins). */
    public static When when(Bool cond, Runnable body) {
        Module m = Builder.get("when").current();
        cond.requireHardware(SrcLoc.here());
        Stmt.When w = new Stmt.When();
        m.blocks.peek().add(w);
        When h = new When(m, w);
        h.branch(cond, body);
        return h;
    }

    // ------------------------------------------------------------------ simulation checks

    /**
     * Chisel's {@code assert}: at every rising clock edge where the enclosing when-conditions hold and
     * reset is low, {@code cond} must be high. The simulator throws {@code SimAssertionError} naming the
     * cycle, the instance, this line and the message; the emitted Verilog calls {@code $fatal} (outside
     * synthesis). The message may show values with {@code %d}, {@code %x}, {@code %b} (see {@link Format}).
     */
    public static void check(Bool cond, String message, Bits... args) {
        addCheck(Check.Type.ASSERTION, cond, message, args, "check");
    }

    /**
     * Chisel's {@code printf}: at every rising clock edge where the enclosing when-conditions hold and
     * reset is low, writes {@code format} with the arguments' values of the cycle ({@code %d}, {@code %x},
     * {@code %b} of any width, {@code %%}; no newline is added). The simulator writes to its print sink,
     * the emitted Verilog uses {@code $write} (outside synthesis).
     */
    public static void printf(String format, Bits... args) {
        addCheck(Check.Type.PRINTF, null, format, args, "printf");
    }

    private static void addCheck(Check.Type type, Bool cond, String fmt, Bits[] args, String what) {
        Builder b = Builder.get(what);
        Module m = b.current();
        SrcLoc at = SrcLoc.here();
        Format f = Format.parse(fmt, args.clone(), what);
        List<Bits> reads = new java.util.ArrayList<>(f.args());
        if (cond != null) {
            reads.add(cond);
        }
        for (Bits r : reads) {
            r.requireHardware(at);
            if (!b.readable(r, m)) {
                b.error(() -> Builder.crossModule(r, m, at));
                return;
            }
        }
        m.checks.add(new Check(type, m.conds.peek(), cond, f, m, at));
    }

    /** Chisel's switch/is: {@code switchOn(state).is(IDLE, () -> ...).is(BUSY, () -> ...).otherwise(...)}. */
    public static Switch switchOn(Bits subject) {
        subject.requireHardware(SrcLoc.here());
        return new Switch(subject);
    }

    /** The handle returned by {@link #when}, continued with elsewhen/otherwise. */
    public static final class When {
        private final Module m;
        private final Stmt.When stmt;
        /** none of the branches so far was taken (null: no branch yet) */
        private Bool noneBefore;

        When(Module m, Stmt.When stmt) {
            this.m = m;
            this.stmt = stmt;
        }

        public When elsewhen(Bool cond, Runnable body) {
            checkOpen("elsewhen");
            cond.requireHardware(SrcLoc.here());
            branch(cond, body);
            return this;
        }

        public void otherwise(Runnable body) {
            checkOpen("otherwise");
            stmt.otherwise = new Stmt.Block();
            enter(stmt.otherwise, noneBefore, body);
        }

        void branch(Bool cond, Runnable body) {
            Stmt.Block blk = new Stmt.Block();
            stmt.conds.add(cond);
            stmt.blocks.add(blk);
            Bool taken = noneBefore == null ? cond : noneBefore.and(cond);
            noneBefore = noneBefore == null ? cond.not() : noneBefore.and(cond.not());
            enter(blk, taken, body);
        }

        private void enter(Stmt.Block blk, Bool taken, Runnable body) {
            Bool outer = m.conds.peek();
            m.conds.push(outer == null ? taken : outer.and(taken));
            m.blocks.push(blk);
            try {
                body.run();
            } finally {
                m.blocks.pop();
                m.conds.pop();
            }
        }

        private void checkOpen(String what) {
            if (stmt.otherwise != null) {
                throw new HdlException(what + " at " + SrcLoc.here() + " after otherwise()");
            }
            if (Builder.get(what).current() != m || m.blocks.peek().last() != stmt) {
                throw new HdlException(what + " at " + SrcLoc.here() + " must directly follow its when()");
            }
        }
    }

    /** The handle returned by {@link #switchOn}. */
    public static final class Switch {
        private final Bits subject;
        private When chain;

        Switch(Bits subject) {
            this.subject = subject;
        }

        public Switch is(long value, Runnable body) {
            return is(subject.eq(value), body);
        }

        public Switch is(Bits value, Runnable body) {
            return is(subject.eq(value), body);
        }

        /** Any of several values. */
        public Switch isAny(long[] values, Runnable body) {
            Bool c = subject.eq(values[0]);
            for (int i = 1; i < values.length; i++) {
                c = c.or(subject.eq(values[i]));
            }
            return is(c, body);
        }

        private Switch is(Bool cond, Runnable body) {
            chain = chain == null ? when(cond, body) : chain.elsewhen(cond, body);
            return this;
        }

        public void otherwise(Runnable body) {
            if (chain == null) {
                body.run();
            } else {
                chain.otherwise(body);
            }
        }
    }
}
