package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.NicHost;

/**
 * A combinational look-up of one VP's host ring as the host configured it through the BAR: the user drives
 * {@link #vp}; {@link VpQueues} answers with the ring's base address, size and the host's consumer index.
 * docs/th2-nic.md, "Host-visible queues".
 */
public final class QueueLookup extends Bundle {
    public final UInt vp = flipped(UInt(6));
    /** 4 KB aligned ring address (bits 11:0 zero). */
    public final UInt base = UInt(64);
    /** log2(entries); 0 = the host set up no ring. */
    public final UInt log2 = UInt(NicHost.LOG2_BITS);
    /** Consumer index the host last wrote. */
    public final UInt head = UInt(NicHost.INDEX_BITS);
}
