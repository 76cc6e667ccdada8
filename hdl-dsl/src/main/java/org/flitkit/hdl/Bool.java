package org.flitkit.hdl;

/** A one-bit unsigned signal; logical operations stay Bool. Create types with {@link Hdl#Bool()}. */
public final class Bool extends UInt {
    Bool() {
        super(1);
    }

    @Override
    Bits cloneType() {
        return new Bool();
    }

    @Override
    Bits sameKind(int w) {
        return w == 1 ? new Bool() : new UInt(w);
    }

    public Bool and(Bool o) {
        return (Bool) super.and(o);
    }

    public Bool or(Bool o) {
        return (Bool) super.or(o);
    }

    public Bool xor(Bool o) {
        return (Bool) super.xor(o);
    }

    @Override
    public Bool not() {
        return (Bool) super.not();
    }

    public Bool andNot(Bool o) {
        return and(o.not());
    }

    /** Chisel's {@code Mux} with this as the select. */
    public <T extends Bits> T select(T whenTrue, T whenFalse) {
        return Hdl.mux(this, whenTrue, whenFalse);
    }
}
