package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * The link BIST's result registers: this end's generator (running, done, frames sent) and checker (frames
 * tested, errored frames, payload bit errors, the first errored frame's index in the run).
 * Spec: 20-th2-management.md, function 6; docs/th2-link.md, "BIST".
 */
public final class BistResult extends Bundle {
    /** the generator is sending BIST frames */
    public final Bool running = Bool();
    /** the generator finished (duration reached or stopped) since the last start */
    public final Bool done = Bool();
    /** BIST frames sent since the last start */
    public final UInt framesSent = UInt(32);
    /** the checker is locked on the peer's PRBS stream */
    public final Bool synced = Bool();
    /** BIST frames received and compared since the run began (the peer's first frame, or the local start) */
    public final UInt framesTested = UInt(32);
    /** BIST frames whose payload differed from the expected PRBS */
    public final UInt erroredFrames = UInt(32);
    /** payload bits that differed */
    public final UInt bitErrors = UInt(32);
    /** an errored frame was seen */
    public final Bool firstErrorValid = Bool();
    /** index (0 = the run's first frame) of the first errored BIST frame */
    public final UInt firstErrorFrame = UInt(32);
    /** times the checker re-locked on a CRC-good frame that did not match its prediction */
    public final UInt resyncs = UInt(16);
}
