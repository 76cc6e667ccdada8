package org.flitkit.rtl.nrc.sw;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * Freed input-buffer slots downstream: {@code count} slots of VC {@code vc}. The link layer delivers
 * credits cumulatively, so one return may free several slots. Spec: 20-th2-management.md, "The system" (credits).
 */
public final class CreditReturn extends Bundle {
    public final UInt vc = UInt(3);
    public final UInt count = UInt(4);
}
