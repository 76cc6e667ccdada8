package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.NicEvent;
import org.flitkit.formats.th2.NicHost;

/**
 * An event for a VP's EQ as a block hands it to {@link EventWriter}: the fields of {@code NicHost.EVENT}
 * except phase and timestamp (the writer adds them), and the interrupt to raise once it is written.
 * docs/th2-nic.md, "Host-visible queues".
 */
public final class EventReq extends Bundle {
    /** No interrupt; else {@code NicHost.IRQ_*}. */
    public static final int IRQ_NONE = 0;

    public final UInt vp = UInt(6);
    public final UInt type = UInt(NicEvent.BITS);
    public final UInt code = UInt(8);
    public final UInt tid = UInt(16);
    public final UInt index = UInt(NicHost.INDEX_BITS);
    public final UInt irq = UInt(2);
}
