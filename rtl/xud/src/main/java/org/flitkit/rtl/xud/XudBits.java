package org.flitkit.rtl.xud;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;

/**
 * Hardware access to the {@link XudFormat} fields by the same {@link XudFormat.Field} handles the software
 * codec uses, so the RTL and the environment cannot disagree on a bit position.
 */
public final class XudBits {
    private XudBits() {
    }

    public static UInt get(Bits word, XudFormat.Field f) {
        return word.bits(f.msb(), f.lsb());
    }

    /** {@code word} with field {@code f} replaced by {@code value} (narrower values are zero-extended). */
    public static UInt with(Bits word, XudFormat.Field f, Bits value) {
        if (value.width() > f.width()) {
            throw new HdlException("field " + f.name() + " is " + f.width() + " bits; value is " + value.width());
        }
        if (f.msb() >= word.width()) {
            throw new HdlException("field " + f.name() + " [" + f.msb() + ":" + f.lsb() + "] is outside a " + word.width() + "-bit word");
        }
        List<Bits> parts = new ArrayList<>();
        if (f.msb() < word.width() - 1) {
            parts.add(word.bits(word.width() - 1, f.msb() + 1));
        }
        parts.add(value.asUInt().pad(f.width()));
        if (f.lsb() > 0) {
            parts.add(word.bits(f.lsb() - 1, 0));
        }
        return cat(parts);
    }

    public static UInt with(Bits word, XudFormat.Field f, long value) {
        return with(word, f, lit(value, f.width()));
    }

    /** Byte order reversed: a network-order field (byte 0 most significant) as a little-endian host word and back. */
    public static UInt byteReverse(Bits x) {
        if (x.width() % 8 != 0) {
            throw new HdlException("byteReverse needs whole bytes, got " + x.width() + " bits");
        }
        int n = x.width() / 8;
        Bits[] msbFirst = new Bits[n];
        for (int k = 0; k < n; k++) {
            msbFirst[k] = x.bits(8 * k + 7, 8 * k);
        }
        return cat(msbFirst);
    }
}
