package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * The packet buffers of one side of a NIC's SRAM (multi-rail paper, section 2.1.2: the SDMA engine fills
 * transmit chunks that SEND drains; RECV fills what RDMA drains): {@code alloc} offers the lowest free buffer,
 * {@code release} frees one. A buffer allocated and released in the same cycle stays allocated only if it is
 * the other one.
 */
public final class SlotPool extends Module {
    public final Decoupled<UInt> alloc = output(Decoupled.of(UInt(MncParams.SLOT_BITS)));
    public final Valid<UInt> release = input(Valid.of(UInt(MncParams.SLOT_BITS)));
    /** Buffers in use, for observation. */
    public final UInt used = output(UInt(3));

    public SlotPool(int slots) {
        UInt busy = regInit(UInt(slots), 0).named("busy");
        List<Bool> free = new ArrayList<>();
        List<UInt> index = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            free.add(busy.bit(i).not());
            index.add(lit(i, MncParams.SLOT_BITS));
        }
        alloc.valid.assign(orAll(free));
        alloc.bits.assign(priorityMux(free, index));
        UInt set = mux(alloc.fire(), lit(1, slots).shlTrunc(alloc.bits), lit(0, slots));
        UInt clear = mux(release.valid, lit(1, slots).shlTrunc(release.bits), lit(0, slots));
        busy.assign(busy.and(clear.not()).or(set));
        UInt n = lit(0, 3);
        for (int i = 0; i < slots; i++) {
            n = n.add(busy.bit(i).asUInt().pad(3));
        }
        used.assign(n);
    }
}
