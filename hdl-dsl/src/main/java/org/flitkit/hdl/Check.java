package org.flitkit.hdl;

import java.util.ArrayList;
import java.util.List;

/**
 * A simulation-only statement: an assertion made with {@link Hdl#check} or a print made with
 * {@link Hdl#printf}. Like Chisel's {@code assert} and {@code printf}, it acts at each rising clock
 * edge where the enclosing when-conditions hold and reset is low, on the values of the cycle that the
 * edge ends. The simulator and the emitted Verilog (outside synthesis) both run it.
 *
 * @param enable the when-conditions around the statement, or null at the top level of the module body
 * @param condition what must hold (assertions only; null for a print)
 * @param format the message (assertions) or the text to print, with its arguments
 */
public record Check(Type type, Bool enable, Bool condition, Format format, Module owner, SrcLoc loc) {
    /** An assertion fails when its condition is low; a print writes its formatted text. */
    public enum Type {
        ASSERTION, PRINTF
    }

    public boolean isAssertion() {
        return type == Type.ASSERTION;
    }

    /** What this statement reads: its arguments, enable and condition. */
    public List<Bits> reads() {
        List<Bits> r = new ArrayList<>(format.args());
        if (enable != null) {
            r.add(enable);
        }
        if (condition != null) {
            r.add(condition);
        }
        return r;
    }

    @Override
    public String toString() {
        return (isAssertion() ? "check" : "printf") + " in " + owner.path() + " (" + loc + "): \"" + format.source() + "\"";
    }
}
