package org.flitkit.hdl;

/**
 * Arithmetic, bitwise, shift and ordering operations shared by {@link UInt} and {@link SInt}; the
 * self type keeps results typed ({@code UInt.add(UInt)} is a {@code UInt}). Widths follow Chisel:
 * {@code add}/{@code sub} wrap at the wider operand's width, {@code addW}/{@code subW} grow by one bit.
 */
public abstract class Num<T extends Num<T>> extends Bits {
    Num(int width) {
        super(width);
    }

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    @SuppressWarnings("unchecked")
    T mk(int w, Op op, int p0, int p1, Bits... args) {
        return (T) node(sameKind(w), op, p0, p1, args);
    }

    @SuppressWarnings("unchecked")
    T lit(long v) {
        return (T) Hdl.litFor(this, v);
    }

    private T binary(Op op, int w, T o) {
        requireSameSign(o, op);
        return mk(w, op, 0, 0, extendTo(w), o.extendTo(w));
    }

    /** Sum wrapping at max(width, o.width) bits. */
    public T add(T o) {
        return binary(Op.ADD, Math.max(width, o.width), o);
    }

    /** Sum with carry: max(width, o.width) + 1 bits. */
    public T addW(T o) {
        return binary(Op.ADD, Math.max(width, o.width) + 1, o);
    }

    public T sub(T o) {
        return binary(Op.SUB, Math.max(width, o.width), o);
    }

    public T subW(T o) {
        return binary(Op.SUB, Math.max(width, o.width) + 1, o);
    }

    public T add(long v) {
        return add(lit(v));
    }

    public T sub(long v) {
        return sub(lit(v));
    }

    /** Full product, width + o.width bits. */
    public T mul(T o) {
        requireSameSign(o, Op.MUL);
        return mk(width + o.width, Op.MUL, 0, 0, this, o);
    }

    /** Quotient (width of the dividend; 0 when dividing by zero). */
    public T div(T o) {
        requireSameSign(o, Op.DIV);
        return mk(width + (isSigned() ? 1 : 0), Op.DIV, 0, 0, this, o);
    }

    /** Remainder, sign of the dividend (0 when dividing by zero). */
    public T rem(T o) {
        requireSameSign(o, Op.REM);
        return mk(Math.min(width, o.width), Op.REM, 0, 0, this, o);
    }

    public T and(T o) {
        return binary(Op.AND, Math.max(width, o.width), o);
    }

    public T or(T o) {
        return binary(Op.OR, Math.max(width, o.width), o);
    }

    public T xor(T o) {
        return binary(Op.XOR, Math.max(width, o.width), o);
    }

    public T and(long v) {
        return and(lit(v));
    }

    public T or(long v) {
        return or(lit(v));
    }

    public T xor(long v) {
        return xor(lit(v));
    }

    public T not() {
        return mk(width, Op.NOT, 0, 0, this);
    }

    /** Shift left by a constant: width grows by n. */
    public T shl(int n) {
        checkShift(n);
        return n == 0 ? self() : mk(width + n, Op.SHL, n, 0, this);
    }

    /** Shift right by a constant (arithmetic for SInt): width shrinks by n (at least 1 bit left). */
    public T shr(int n) {
        checkShift(n);
        return n == 0 ? self() : mk(Math.max(1, width - n), Op.SHR, n, 0, this);
    }

    private void checkShift(int n) {
        if (n < 0 || width + n > Hdl.MAX_WIDTH) {
            throw new HdlException("shift by " + n + " at " + SrcLoc.here() + " is out of range for " + describe());
        }
    }

    /** Shift left by a hardware amount: width grows by 2^amount.width - 1, like Chisel's dshl. */
    public T shl(UInt amount) {
        long grow = (1L << Math.min(amount.width, 20)) - 1;
        if (amount.width > 20 || width + grow > Hdl.MAX_WIDTH) {
            throw new HdlException("dynamic shift at " + SrcLoc.here() + ": a " + amount.width + "-bit amount would grow "
                    + describe() + " past " + Hdl.MAX_WIDTH + " bits; narrow the amount or use shlTrunc()");
        }
        return mk(width + (int) grow, Op.DSHL, 0, 0, this, amount);
    }

    /** Shift left by a hardware amount, keeping this width (bits shifted out are lost). */
    public T shlTrunc(UInt amount) {
        return mk(width, Op.DSHL, 0, 0, this, amount);
    }

    /** Shift right by a hardware amount (arithmetic for SInt), same width. */
    public T shr(UInt amount) {
        return mk(width, Op.DSHR, 0, 0, this, amount);
    }

    public Bool lt(T o) {
        return compare(Op.LT, o);
    }

    public Bool le(T o) {
        return compare(Op.LE, o);
    }

    public Bool gt(T o) {
        return compare(Op.GT, o);
    }

    public Bool ge(T o) {
        return compare(Op.GE, o);
    }

    public Bool lt(long v) {
        return lt(lit(v));
    }

    public Bool le(long v) {
        return le(lit(v));
    }

    public Bool gt(long v) {
        return gt(lit(v));
    }

    public Bool ge(long v) {
        return ge(lit(v));
    }

    /** Zero- or sign-extends to {@code w} bits (w must not be smaller). */
    public T pad(int w) {
        if (w < width) {
            throw new HdlException("pad(" + w + ") at " + SrcLoc.here() + " would narrow " + width + "-bit " + describe()
                    + "; use trunc()");
        }
        return w == width ? self() : mk(w, Op.EXT, 0, 0, this);
    }

    /** Chisel's {@code Fill}: this value repeated {@code n} times. */
    public UInt replicate(int n) {
        return Hdl.fill(n, this);
    }
}
