package org.flitkit.hdl.sim;

import static org.flitkit.hdl.sim.Wide.limbs;

import java.math.BigInteger;
import org.flitkit.hdl.Bits;

/** Widths, limbs and literals as the generated code writes them (limb counts and masks are {@link Wide}'s), shared by the code generator's passes and the simulator. */
final class SourceText {
    private SourceText() {
    }

    /** The imports every generated unit starts with. */
    static final String UNIT_HEADER =
            "package org.flitkit.hdl.sim.gen;\n\nimport org.flitkit.hdl.sim.LinearMaps;\nimport org.flitkit.hdl.sim.MemPorts;\nimport org.flitkit.hdl.sim.Memories;\nimport org.flitkit.hdl.sim.Wide;\n\n";

    /** Whether a value is stored as limbs in {@code w} (over 64 bits) rather than one long in {@code v}. */
    static boolean wide(Bits n) {
        return n.width() > 64;
    }

    /** The 64-bit limbs of a value, least significant first. */
    static long[] limbsOf(BigInteger v, int width) {
        long[] l = new long[limbs(width)];
        for (int i = 0; i < l.length; i++) {
            l[i] = v.shiftRight(64 * i).longValue();
        }
        return l;
    }

    /** A Java long literal. */
    static String hex(long x) {
        return "0x" + Long.toHexString(x) + "L";
    }
}
