package org.flitkit.rtl.nma.hw;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * The register bus between {@code reg_access} (master) and a chip's register file (slave): one
 * 64-bit access per cycle, read data and the "no such register" flag combinational in the same cycle.
 * Seen from the master; the register file takes it flipped. Spec: 20-th2-management.md, NMA submodules.
 */
public final class RegBus extends Bundle {
    public final Bool read = Bool();
    public final Bool write = Bool();
    public final UInt addr;
    public final UInt wdata = UInt(64);
    public final UInt rdata = flipped(UInt(64));
    /** the address is not mapped (for writes also: the register is read-only) */
    public final Bool error = flipped(Bool());
    /** the address is mapped but read-only (independent of the strobes), so a master can tell READ_ONLY from UNMAPPED */
    public final Bool readOnly = flipped(Bool());

    public RegBus(int addrBits) {
        addr = UInt(addrBits);
    }
}
