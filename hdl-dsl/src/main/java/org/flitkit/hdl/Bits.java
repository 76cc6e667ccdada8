package org.flitkit.hdl;

import java.math.BigInteger;
import java.util.List;

/**
 * A ground signal of a fixed width: the user's handle and the netlist node at once. Operations build
 * new nodes eagerly with their result width (FIRRTL width rules), so width errors surface at the line
 * that caused them.
 */
public abstract class Bits extends Data {
    final int width;
    Kind kind = Kind.TYPE;
    Op op;
    Bits[] args;
    int p0;
    int p1;
    BigInteger lit;
    /** REG: reset value (null: no reset) */
    Bits init;
    /** WIRE: value when no connect applies (null: must be driven on every path) */
    Bits dflt;
    /** MEM_SYNC_READ and MEM_READ: the memory */
    Mem<?> mem;

    Bits(int width) {
        if (width < 1 || width > Hdl.MAX_WIDTH) {
            throw new HdlException("width " + width + " at " + SrcLoc.here() + " is out of range 1.." + Hdl.MAX_WIDTH);
        }
        this.width = width;
    }

    public int width() {
        return width;
    }

    public abstract boolean isSigned();

    public Kind kind() {
        return kind;
    }

    public Op op() {
        return op;
    }

    /** Operands of an OP node (empty for other kinds). */
    public List<Bits> args() {
        return args == null ? List.of() : List.of(args);
    }

    public int param0() {
        return p0;
    }

    public int param1() {
        return p1;
    }

    /** Literal value (two's complement bits, non-negative) or null. */
    public BigInteger litValue() {
        return lit;
    }

    public Bits resetValue() {
        return init;
    }

    public Bits defaultValue() {
        return dflt;
    }

    public Mem<?> mem() {
        return mem;
    }

    @Override
    public List<Bits> leaves() {
        return List.of(this);
    }

    @Override
    String shape() {
        return (isSigned() ? "SInt" : this instanceof Bool ? "Bool" : "UInt") + "<" + width + ">";
    }

    /** A fresh unbound signal of the same type and width. */
    abstract Bits cloneType();

    /** Creates an unbound node of this Java type with another width (Bool becomes UInt when wider than 1). */
    abstract Bits sameKind(int w);

    @Override
    public String toString() {
        return kind == Kind.LIT ? shape() + "(" + (isSigned() ? litSigned() : "0x" + lit.toString(16)) + ")" : path();
    }

    /** The value of a literal as the user sees it: negative for an SInt with its sign bit set. */
    BigInteger litSigned() {
        return isSigned() ? Hdl.signedValue(lit, width) : lit;
    }

    // ---------------------------------------------------------------- connection

    /** Drives this signal from {@code v} (last connect wins, under the enclosing when conditions). */
    public void assign(Bits v) {
        Builder b = Builder.get("assign");
        Module m = b.current();
        SrcLoc at = SrcLoc.here();
        v.requireHardware(at);
        requireHardware(at);
        boolean ok = switch (kind) {
            case OUTPUT, WIRE, REG -> owner == m;
            case INPUT -> owner != null && owner.parent == m;
            default -> false;
        };
        if (!ok) {
            b.error(() -> cannotDrive(m) + " (connect at " + at + ")");
            return;
        }
        if (!b.readable(v, m)) {
            b.error(() -> Builder.crossModule(v, m, at));
            return;
        }
        if (v.isSigned() != isSigned()) {
            b.error(() -> "connect at " + at + ": cannot drive " + shape() + " " + path() + " from " + v.shape() + " "
                    + v.describe() + "; convert explicitly with asUInt()/asSInt()");
            return;
        }
        if (v.width > width) {
            b.error(() -> "connect at " + at + ": " + v.width + "-bit " + v.describe() + " does not fit " + width + "-bit "
                    + path() + " (created at " + loc + "); truncate explicitly with .trunc(" + width + ")");
            return;
        }
        m.blocks.peek().add(new Stmt.Connect(this, v.extendTo(width), at));
    }

    public void assign(long v) {
        assign(Hdl.litOf(this, v));
    }

    private String cannotDrive(Module m) {
        String what = switch (kind) {
            case INPUT -> owner == m ? "an input port cannot be driven from inside its own module"
                    : "this input port belongs to a module that is not a direct child of " + m.path();
            case OUTPUT -> owner != m && owner != null && owner.parent == m
                    ? "an output of a child instance is a source, it cannot be driven by the parent"
                    : "this output belongs to another module than " + m.path();
            case LIT -> "a literal cannot be driven";
            case OP, MEM_SYNC_READ -> "the result of an expression cannot be driven; connect to a wire() or reg()";
            case WIRE, REG -> "this " + kind.name().toLowerCase() + " belongs to " + (owner == null ? "no module" : owner.path())
                    + ", not to " + m.path();
            default -> "it is not hardware";
        };
        return "cannot drive " + path() + " (created at " + loc + "): " + what;
    }

    /** +1 when the current module must drive this leaf, -1 when it is a pure source, 0 for wires and regs. */
    int sinkSide() {
        Module m = Builder.get("connect").current();
        return switch (kind) {
            case OUTPUT -> owner == m ? 1 : -1;
            case INPUT -> owner == m ? -1 : 1;
            default -> 0;
        };
    }

    /** True when this leaf sits below an odd number of flipped fields inside {@code root}. */
    boolean flippedWithin(Data root) {
        boolean f = false;
        for (Data d = this; d != null && d != root; d = d.aggParent) {
            f ^= d.flipped;
        }
        return f;
    }

    /** Sets the reset value of a register (synchronous reset). */
    @SuppressWarnings("unchecked")
    public <T extends Bits> T init(long v) {
        if (kind != Kind.REG) {
            throw new HdlException(path() + " at " + SrcLoc.here() + ": init() is only for registers");
        }
        init = Hdl.litOf(this, v);
        return (T) this;
    }

    // ---------------------------------------------------------------- helpers for operations

    void requireHardware(SrcLoc at) {
        if (kind == Kind.TYPE) {
            throw new HdlException(shape() + " created at " + loc + " is a type, not hardware (used at " + at
                    + "); make it hardware with input(), output(), wire() or reg()");
        }
    }

    String describe() {
        if (kind == Kind.LIT) {
            return "literal " + litSigned() + " (at " + loc + ")";
        }
        if (kind == Kind.OP && name() == null) {
            return "expression " + op.name().toLowerCase() + " (at " + loc + ")";
        }
        return "'" + path() + "' (created at " + loc + ")";
    }

    /** New OP node owned by the current module; checks that each operand is visible there. */
    static <T extends Bits> T node(T proto, Op op, int p0, int p1, Bits... args) {
        Builder b = Builder.get(op.name().toLowerCase());
        Module m = b.current();
        SrcLoc at = null;
        for (Bits a : args) {
            if (a.kind == Kind.TYPE) {
                a.requireHardware(SrcLoc.here());
            }
            if (!b.readable(a, m)) {
                if (at == null) {
                    at = SrcLoc.here();
                }
                SrcLoc where = at;
                b.error(() -> Builder.crossModule(a, m, where));
            }
        }
        proto.kind = Kind.OP;
        proto.op = op;
        proto.p0 = p0;
        proto.p1 = p1;
        proto.args = args;
        proto.owner = m;
        return proto;
    }

    /** Extends (by signedness) to {@code w} bits; no-op when already that wide. */
    Bits extendTo(int w) {
        if (w == width) {
            return this;
        }
        if (w < width) {
            throw new IllegalStateException("extendTo narrows");
        }
        if (kind == Kind.LIT) {
            return Hdl.litBits(sameKind(w), isSigned() ? Hdl.signedValue(lit, width) : lit);
        }
        return node(sameKind(w), Op.EXT, 0, 0, this);
    }

    // ---------------------------------------------------------------- operations common to all ground types

    public Bool eq(Bits o) {
        return compare(Op.EQ, o);
    }

    public Bool ne(Bits o) {
        return compare(Op.NE, o);
    }

    public Bool eq(long v) {
        return eq(Hdl.litFor(this, v));
    }

    public Bool ne(long v) {
        return ne(Hdl.litFor(this, v));
    }

    Bool compare(Op op, Bits o) {
        requireSameSign(o, op);
        requireReachable(op, o);
        int w = Math.max(width, o.width);
        return node(new Bool(), op, 0, 0, extendTo(w), o.extendTo(w));
    }

    /**
     * A constant outside the range of the signal it is compared with gives the same answer on every
     * cycle ({@code in8.eq(300)} is never true): that is a mistake, reported with both widths.
     */
    private void requireReachable(Op op, Bits o) {
        Bits signal = kind == Kind.LIT ? o : this;
        Bits constant = kind == Kind.LIT ? this : o;
        if (constant.kind != Kind.LIT || signal.kind == Kind.LIT) {
            return;
        }
        BigInteger v = constant.litSigned();
        int need = isSigned() ? v.bitLength() + 1 : Math.max(1, v.bitLength());
        if (need <= signal.width) {
            return;
        }
        throw new HdlException(op.name().toLowerCase() + "(" + v + ") at " + SrcLoc.here() + ": the constant " + v + " needs "
                + need + " bits" + (isSigned() ? " signed" : "") + " but " + signal.describe() + " has " + signal.width + " ("
                + signal.shape() + "), so the comparison has the same result on every cycle; fix the constant or widen the"
                + " signal with pad(" + need + ")");
    }

    void requireSameSign(Bits o, Op op) {
        if (isSigned() != o.isSigned()) {
            throw new HdlException(op.name().toLowerCase() + " at " + SrcLoc.here() + " mixes " + shape() + " "
                    + describe() + " and " + o.shape() + " " + o.describe() + "; convert with asUInt()/asSInt()");
        }
    }

    /** Bits hi..lo (inclusive) as an unsigned value. */
    public UInt bits(int hi, int lo) {
        if (lo < 0 || hi < lo || hi >= width) {
            throw new HdlException("bits(" + hi + ", " + lo + ") at " + SrcLoc.here() + " is out of range for " + width
                    + "-bit " + describe());
        }
        return (UInt) node(hi == lo ? new Bool() : new UInt(hi - lo + 1), Op.SLICE, hi, lo, this);
    }

    /** A single bit, constant index. */
    public Bool bit(int i) {
        return (Bool) bits(i, i);
    }

    /** A single bit chosen by a hardware index (0 when the index is past the top bit). */
    public Bool bit(UInt index) {
        return node(new UInt(width), Op.DSHR, 0, 0, asUIntRaw(), index).bit(0);
    }

    /** The low {@code w} bits: the explicit truncation. */
    public UInt trunc(int w) {
        return bits(w - 1, 0);
    }

    /** The top {@code n} bits. */
    public UInt head(int n) {
        return bits(width - 1, width - n);
    }

    /** Drops the top {@code n} bits. */
    public UInt tail(int n) {
        return bits(width - n - 1, 0);
    }

    public Bool andR() {
        return node(new Bool(), Op.ANDR, 0, 0, this);
    }

    public Bool orR() {
        return node(new Bool(), Op.ORR, 0, 0, this);
    }

    public Bool xorR() {
        return node(new Bool(), Op.XORR, 0, 0, this);
    }

    /** Reinterprets the bits as unsigned. */
    public UInt asUInt() {
        return asUIntRaw();
    }

    UInt asUIntRaw() {
        if (!isSigned()) {
            return (UInt) this;
        }
        return node(new UInt(width), Op.AS_UINT, 0, 0, this);
    }

    /** Reinterprets the bits as two's complement. */
    public SInt asSInt() {
        if (isSigned()) {
            return (SInt) this;
        }
        return node(new SInt(width), Op.AS_SINT, 0, 0, this);
    }

    /** Concatenation, this in the most significant position. */
    public UInt cat(Bits... lower) {
        Bits[] all = new Bits[lower.length + 1];
        all[0] = this;
        System.arraycopy(lower, 0, all, 1, lower.length);
        return Hdl.cat(all);
    }
}
