package org.flitkit.rtl.pcie;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * A host write of one 64-bit register in the device's BAR (doorbells, queue configuration, PIO descriptor
 * words), as the device receives it after the posted-write latency. One register, not a data beat: the same
 * bundle at every beat width. docs/host-pcie.md.
 */
public final class MmioWrite extends Bundle {
    /** Byte address in the BAR, 8-byte aligned. */
    public final UInt addr = UInt(Pcie.MMIO_ADDR_BITS);
    public final UInt data = UInt(64);
}
