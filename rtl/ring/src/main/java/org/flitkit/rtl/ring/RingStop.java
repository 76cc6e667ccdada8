package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * The ports every ring stop has, whatever its access rule: its address, the slot from upstream, its output register
 * to downstream, the local source and the packets removed here ("Multi-rings and distributed full switches", section
 * "Non-switched multi-rings": the slotted and the register-insertion ring).
 */
public abstract class RingStop extends Module {
    /** This node's address (a constant from the parent, so every stop shares one definition). */
    public final UInt id;
    /** The slot arriving from the upstream node's register. */
    public final Slot in;
    /** The slot leaving to the downstream node: this node's register. */
    public final Slot out;
    /** The local source. */
    public final Decoupled<Packet> inject;
    /** Packets removed here. */
    public final Valid<Delivery> eject;

    protected RingStop(RingParams p) {
        id = input(UInt(p.nodeBits()));
        in = input(new Slot(p));
        out = output(new Slot(p));
        inject = input(Decoupled.of(() -> new Packet(p)));
        eject = output(Valid.of(() -> new Delivery(p)));
    }
}
