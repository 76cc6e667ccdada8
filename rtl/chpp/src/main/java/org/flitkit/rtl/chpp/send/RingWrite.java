package org.flitkit.rtl.chpp.send;

import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One completion beat placed in the reorder buffer by {@link DataExtract}: its bytes already rotated to their byte
 * lanes (lane j holds buffer positions = j mod 16), so lane j writes row {@code row + (j < off ? 1 : 0)} when
 * {@code mask} bit j is set. docs/chpp-data-stages.md, "How it works".
 */
public final class RingWrite extends Bundle {
    /** Buffer row (16 bytes) of the beat's first byte; up to 4096 rows (64 KB). */
    public final UInt row = UInt(12);
    /** Byte lane of the beat's first byte. */
    public final UInt off = UInt(4);
    /** The beat's bytes rotated left by {@code off} lanes (lane j in bits 8j+7:8j). */
    public final UInt data = UInt(128);
    /** Lanes written. */
    public final UInt mask = UInt(16);
}
