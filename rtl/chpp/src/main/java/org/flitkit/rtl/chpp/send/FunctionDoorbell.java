package org.flitkit.rtl.chpp.send;

import static org.flitkit.hdl.Hdl.UInt;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * A doorbell with the PCIe function it belongs to: what the doorbell window writes into the doorbell module
 * and what the function arbiter hands to the descriptor-read stage (docs/chpp-dma.md, "Ports").
 */
public final class FunctionDoorbell extends Bundle {
    /** PCIe function number; 0 is the PF, 1..7 the VFs in the paper's configuration. */
    public final UInt function = UInt(Doorbell.FUNCTION_BITS);
    public final Doorbell doorbell = new Doorbell();
}
