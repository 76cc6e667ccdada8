package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * What one port's link layer tells the NMA register map: state, the neighbour learnt by IDENT frames, and the
 * link counters of management function 2 (counters are 48 bits and wrap; software takes differences).
 * Spec: 20-th2-management.md, function 2 and "Hardware primitives"; docs/th2-link.md, "Status".
 */
public final class LinkStatus extends Bundle {
    /** Counter width: wraps after 7 days at 437 MHz, so a compare-mode scan never sees two wraps. */
    public static final int COUNTER_BITS = 48;

    /** the link is up (handshake done, frames arriving) */
    public final Bool up = Bool();
    /** lanes in use while up: 8, 4, 2 or 1 (0 while down) */
    public final UInt width = UInt(4);
    /** lanes this end received well in the last training, one bit per lane (the first {@code width} carry frames) */
    public final UInt rxLanes = UInt(8);
    /** lanes the peer received well in the last training: this end sends on the first {@code width} of them */
    public final UInt txLanes = UInt(8);
    /** the neighbour's identity word, IdentityWord layout; valid [32] = 0 until learnt, and after link down */
    public final UInt neighbour = UInt(64);
    /** down -> up transitions (handshakes completed) */
    public final UInt handshakes = UInt(COUNTER_BITS);
    /** up -> down transitions (silence for silenceTimeout cycles, or the peer restarted training) */
    public final UInt linkDownEvents = UInt(COUNTER_BITS);
    /** FLIT frames sent, first sends and retransmissions together (the retransmission rate's denominator) */
    public final UInt framesSent = UInt(COUNTER_BITS);
    /** FLIT frames sent again from the replay buffer */
    public final UInt retransmitted = UInt(COUNTER_BITS);
    /** replays started (by a NAK, a timeout or a link-up with frames unacknowledged) */
    public final UInt replays = UInt(COUNTER_BITS);
    /** frames received with a bad CRC (cycles of a cut cable included) */
    public final UInt crcErrors = UInt(COUNTER_BITS);
    /** flits delivered to the switch (CRC-good, in order, once each) */
    public final UInt flitsReceived = UInt(COUNTER_BITS);
    /**
     * CRC-good frames breaking the protocol (unknown type, CreditVC >= vcCount, ACK outside the window: only their
     * valid parts are used) plus local txCredit pulses for a VC >= vcCount (ignored)
     */
    public final UInt protocolErrors = UInt(COUNTER_BITS);
}
