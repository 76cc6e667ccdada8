package org.flitkit.rtl.chpp.send;

import static org.flitkit.hdl.Hdl.Bool;
import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * What one completion beat did to its read slot, from {@link DataExtract} to {@link DataReorder}: bytes placed,
 * and on the read's end (last beat or error completion) its outcome. docs/chpp-data-stages.md, "Ports".
 */
public final class ReadProgress extends Bundle {
    public final UInt slot = UInt(DataReadIssue.SLOT_BITS);
    /** Bytes of this beat written into the buffer (0..16). */
    public final UInt bytes = UInt(5);
    /** The read ended with this beat. */
    public final Bool end = Bool();
    /** On {@link #end}: OK, or PCIE_ERROR (UR/CA, or completions that did not carry exactly the bytes asked for). */
    public final UInt status = UInt(8);
}
