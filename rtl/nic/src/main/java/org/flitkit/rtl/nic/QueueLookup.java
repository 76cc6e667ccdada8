package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
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

    /** 2^log2, one bit wider than an index (a ring of 2^15 entries holds 2^15 unread ones). */
    public UInt entries() {
        return lit(1, NicHost.INDEX_BITS + 1).shlTrunc(log2.pad(5));
    }

    /** No slot for the entry at free-running index {@code producer}: no ring, or {@code entries} unread ones before it. */
    public Bool full(UInt producer) {
        UInt used = producer.sub(head).pad(NicHost.INDEX_BITS + 1);
        return log2.eq(0).or(used.ge(entries()));
    }

    /** Host address of the entry at free-running {@code index}, entries of 2^{@code entryShift} bytes. */
    public UInt slotAddress(UInt index, int entryShift) {
        // the base is only 4 KB aligned, so add the offset (a ring may span many pages)
        UInt slot = index.and(entries().trunc(NicHost.INDEX_BITS).sub(1));
        return base.add(slot.pad(64 - entryShift).shl(entryShift));
    }

    /** The phase of the entry at free-running {@code index}: 1 on odd laps of the ring (NicHost.phase). */
    public Bool phase(UInt index) {
        return index.shr(log2).bit(0).not();
    }
}
