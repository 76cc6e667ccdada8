package org.flitkit.formats.th2;

import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Layout;

/**
 * Shared argument checks with uniform messages ({@code DestVP 40 outside 0..39}).
 * Spec: the TH-2 management spec, "Management packets and descriptors".
 */
final class Checks {

    private Checks() {
    }

    static void range(String what, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " " + value + " outside " + min + ".." + max);
        }
    }

    static void chipId(String what, int id) {
        range(what, id, 0, (1 << Th2.CHIP_ID_BITS) - 1);
    }

    static void vp(String what, int vp) {
        range(what, vp, 0, Th2.VP_COUNT - 1);
    }

    static void notNull(String what, Object o) {
        if (o == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
    }

    /** Rejects a non-zero value in a field that is unused for this payload. */
    static void requireUnused(Layout layout, Field field, BitVector bits, String why) {
        if (!bits.slice(field).isZero()) {
            throw new IllegalArgumentException(layout.name() + ": " + field.name() + " must be 0 " + why);
        }
    }
}
