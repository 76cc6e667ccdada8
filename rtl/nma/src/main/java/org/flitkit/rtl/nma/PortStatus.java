package org.flitkit.rtl.nma;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * What one port's link layer (NRC or NIC) tells the register map (read-only registers of the port's bank): the
 * neighbour's identity word learnt over the link, link status and counters, BIST result.
 * Spec: 20-th2-management.md, "Hardware primitives" (neighbour identity) and functions 2 and 6.
 */
public final class PortStatus extends Bundle {
    /** neighbour identity word (NmaRegisters.identity layout; valid [32] = 0: unknown) */
    public final UInt neighbour = UInt(64);
    /** link up [0], width in lanes [11:8] */
    public final UInt linkStatus = UInt(64);
    public final UInt retryCount = UInt(64);
    public final UInt handshakeCount = UInt(64);
    /** done [0], errors [63:32] */
    public final UInt bistResult = UInt(64);
}
