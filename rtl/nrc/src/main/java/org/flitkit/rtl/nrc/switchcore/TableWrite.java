package org.flitkit.rtl.nrc.switchcore;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * One routing-table write: entry {@code index} of input {@code port}'s table becomes {@code mask}, the set of
 * outputs a table-routed packet may take (bit o = output o). Spec: 20-th2-management.md, "The system" (table routing).
 */
public final class TableWrite extends Bundle {
    public final UInt port;
    public final UInt index;
    public final UInt mask;
    /** write the entry into every input's table (port ignored): tables common to all ports load in one pass */
    public final Bool all = Bool();

    public TableWrite(SwitchParams p) {
        port = UInt(p.portBits());
        index = UInt(p.indexBits());
        mask = UInt(p.ports());
    }
}
