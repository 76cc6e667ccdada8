package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.LinkFrame;

/**
 * Credits returned by the peer: it freed {@code count} slots of virtual channel {@code vc} of its input buffer
 * (the difference between two cumulative counts it sent, so a lost frame loses no credit).
 * docs/th2-link.md, "Credits".
 */
public final class CreditReturn extends Bundle {
    public final UInt vc = UInt(LinkFrame.VC_BITS);
    public final UInt count = UInt(LinkFrame.CREDIT_BITS);
}
