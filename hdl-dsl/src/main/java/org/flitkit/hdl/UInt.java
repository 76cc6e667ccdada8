package org.flitkit.hdl;

/** Unsigned integer of a fixed width. Create types with {@link Hdl#UInt(int)}. */
public class UInt extends Num<UInt> {
    UInt(int width) {
        super(width);
    }

    @Override
    public boolean isSigned() {
        return false;
    }

    @Override
    Bits cloneType() {
        return new UInt(width);
    }

    @Override
    Bits sameKind(int w) {
        return new UInt(w);
    }

    /** Adds a sign bit: the value as a non-negative SInt one bit wider. */
    public SInt zext() {
        return pad(width + 1).asSInt();
    }
}
