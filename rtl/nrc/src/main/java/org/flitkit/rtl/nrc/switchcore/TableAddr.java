package org.flitkit.rtl.nrc.switchcore;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/** A routing-table entry's address: input {@code port}, entry {@code index} (the table read port). */
public final class TableAddr extends Bundle {
    public final UInt port;
    public final UInt index;

    public TableAddr(SwitchParams p) {
        port = UInt(p.portBits());
        index = UInt(p.indexBits());
    }
}
