package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.UInt;
import org.flitkit.rtl.nma.PortStatus;

/**
 * A link layer's status and BIST results as the words of the NMA's per-port register bank (PortStatus, read by
 * management software), so the NRC and the NIC present their links the same way. Spec: 20-th2-management.md,
 * functions 2 and 6; the bit layouts are in the register descriptions (docs/th2-nma.md).
 */
public final class LinkWords {
    private LinkWords() {
    }

    /** Drives every word of {@code words} from {@code s} and {@code b}. */
    public static void drive(PortStatus words, LinkStatus s, BistResult b) {
        words.neighbour.assign(s.neighbour);
        words.linkStatus.assign(cat(s.width, lit(0, 7), s.up).pad(64));
        words.retryCount.assign(s.retransmitted.pad(64));
        words.handshakeCount.assign(s.handshakes.pad(64));
        words.framesSent.assign(s.framesSent.pad(64));
        words.crcErrors.assign(s.crcErrors.pad(64));
        words.linkDowns.assign(s.linkDownEvents.pad(64));
        words.bistResult.assign(cat(b.erroredFrames, lit(0, 28), b.firstErrorValid, b.synced, b.done, b.running));
        words.bistFrames.assign(cat(b.framesSent, b.framesTested));
        words.bistBitErrors.assign(cat(b.resyncs, b.bitErrors).pad(64));
        words.bistFirstError.assign(b.firstErrorFrame.pad(64));
        words.replays.assign(s.replays.pad(64));
        words.flitsReceived.assign(s.flitsReceived.pad(64));
    }

}
