package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * What one port's link layer (NRC or NIC) tells the register map (read-only registers of the port's bank): the
 * neighbour's identity word learnt over the link, link status and counters, BIST result.
 * Spec: 20-th2-management.md, "Hardware primitives" (neighbour identity) and functions 2 and 6.
 */
public final class PortStatus extends Bundle {
    /** neighbour identity word ({@link org.flitkit.formats.th2.IdentityWord} layout; valid [32] = 0: unknown) */
    public final UInt neighbour = UInt(64);
    /** link up [0], width in lanes [11:8] */
    public final UInt linkStatus = UInt(64);
    public final UInt retryCount = UInt(64);
    public final UInt handshakeCount = UInt(64);
    public final UInt framesSent = UInt(64);
    public final UInt crcErrors = UInt(64);
    public final UInt linkDowns = UInt(64);
    /** done [0], running [1], an errored frame seen [2], checker synced [3], errored frames [63:32] */
    public final UInt bistResult = UInt(64);
    /** frames checked [31:0], frames sent [63:32] */
    public final UInt bistFrames = UInt(64);
    /** bit errors [31:0], resyncs [47:32] */
    public final UInt bistBitErrors = UInt(64);
    public final UInt bistFirstError = UInt(64);
    public final UInt replays = UInt(64);
    public final UInt flitsReceived = UInt(64);
    public final UInt protocolErrors = UInt(64);

    /** The port-bank register each field is read through, field by field in declaration order. */
    public UInt[] words() {
        return new UInt[] {neighbour, linkStatus, retryCount, handshakeCount, framesSent, crcErrors, linkDowns, bistResult,
                bistFrames, bistBitErrors, bistFirstError, replays, flitsReceived, protocolErrors};
    }

    /**
     * Drives with 0 every word but {@code driven} (which the caller drives): a board-level link model keeps only
     * some of the counters, the others read 0.
     */
    public void zeroExcept(UInt... driven) {
        java.util.Set<UInt> d = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        d.addAll(java.util.Arrays.asList(driven));
        for (UInt w : words()) {
            if (!d.contains(w)) {
                w.assign(lit(0, 64));
            }
        }
    }
}
