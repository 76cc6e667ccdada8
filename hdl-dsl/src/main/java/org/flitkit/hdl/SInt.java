package org.flitkit.hdl;

/** Two's complement signed integer of a fixed width. Create types with {@link Hdl#SInt(int)}. */
public final class SInt extends Num<SInt> {
    SInt(int width) {
        super(width);
    }

    @Override
    public boolean isSigned() {
        return true;
    }

    @Override
    Bits cloneType() {
        return new SInt(width);
    }

    @Override
    Bits sameKind(int w) {
        return new SInt(w);
    }

    /** Negation, one bit wider so that the most negative value negates exactly. */
    public SInt neg() {
        return mk(width + 1, Op.NEG, 0, 0, extendTo(width + 1));
    }

    /** Absolute value as unsigned, same width. */
    public UInt abs() {
        return Hdl.mux(lt(0), neg().trunc(width), asUInt());
    }
}
