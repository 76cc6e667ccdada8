package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * The link BIST's control registers (management function 6): start and stop pulses, duration and intensity.
 * Spec: 20-th2-management.md, function 6; docs/th2-link.md, "BIST".
 */
public final class BistControl extends Bundle {
    /** one-cycle pulse: clear the results and start sending BIST frames (restarts a running test) */
    public final Bool start = Bool();
    /** one-cycle pulse: stop sending (the checker keeps its results) */
    public final Bool stop = Bool();
    /** BIST frames to send; 0 = until stopped (read when start is pulsed) */
    public final UInt duration = UInt(32);
    /** intensity: one BIST frame every {@code interval} frame slots, data in the others; 0 or 1 = every slot (read at start) */
    public final UInt interval = UInt(8);
}
