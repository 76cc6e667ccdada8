package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.rtl.pcie.Pcie;

/**
 * Where a writer of host rings (MPQ, EQ) puts its next entry: the free-running producer index, the entry's host
 * address and its phase bit, held in a register while the entry is written. docs/th2-nic.md, "Host-visible queues".
 */
final class RingSlot extends Bundle {
    final UInt index = UInt(NicHost.INDEX_BITS);
    final UInt addr = UInt(Pcie.ADDR_BITS);
    final Bool phase = Bool();

    /** Takes the slot of free-running {@code producer} in {@code ring}, entries of 2^{@code entryShift} bytes (under the caller's when). */
    void take(QueueLookup ring, UInt producer, int entryShift) {
        index.assign(producer);
        addr.assign(ring.slotAddress(producer, entryShift));
        phase.assign(ring.phase(producer));
    }
}
