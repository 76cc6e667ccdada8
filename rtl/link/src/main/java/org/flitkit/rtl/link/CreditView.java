package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.formats.th2.LinkFrame;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Valid;

/**
 * A sender's view of the input buffer at the far end of its link: flits in it per VC, counted up when a flit is
 * sent and down when the peer returns credits. A VC has room while it is below its reservation or the shared
 * slots are not all taken; {@link #free} (its reservation left plus the shared slots left) tells whether a whole
 * packet fits, as virtual cut-through needs. docs/th2-link.md, "Credits".
 */
public final class CreditView extends Module {
    public final BufferShape shape;
    /** a flit of VC {@code bits} was sent */
    public final Valid<UInt> sent = input(Valid.of(UInt(LinkFrame.VC_BITS)));
    /** the peer freed slots */
    public final Valid<CreditReturn> returned = input(Valid.<CreditReturn>of((java.util.function.Supplier<CreditReturn>) CreditReturn::new));
    /** the VC asked about */
    public final UInt vc = input(UInt(LinkFrame.VC_BITS));
    /** slots VC {@link #vc} can still fill: its reservation left plus the shared slots left */
    public final UInt free;
    /** flits in the far buffer, all VCs (for invariant checks) */
    public final UInt occupied;
    /** a credit return would take a VC below zero (a peer returning more than it was sent): a sticky error */
    public final Bool underflow = output(Bool());

    public CreditView(BufferShape shape) {
        this.shape = shape;
        int w = shape.countBits() + 1;
        free = output(UInt(w));
        occupied = output(UInt(w));
        UInt[] occ = new UInt[shape.vcs()];
        UInt sharedUsed = lit(0, w);
        UInt total = lit(0, w);
        Bool bad = regInit(Bool(), 0).named("underflowSeen");
        UInt chosenOcc = lit(0, w);
        for (int v = 0; v < shape.vcs(); v++) {
            UInt o = occ[v] = regInit(UInt(w), 0).named("occ" + v);
            UInt over = mux(o.gt(shape.reservedFlits()), o.sub(shape.reservedFlits()), lit(0, w));
            sharedUsed = sharedUsed.add(over);
            total = total.add(o);
            chosenOcc = mux(vc.eq(v), o, chosenOcc);
            UInt up = mux(sent.valid.and(sent.bits.eq(v)), lit(1, w), lit(0, w));
            UInt down = mux(returned.valid.and(returned.bits.vc.eq(v)), returned.bits.count.pad(w), lit(0, w));
            Bool under = o.add(up).lt(down);
            when(under, () -> bad.assign(TRUE()));
            o.assign(mux(under, lit(0, w), o.add(up).sub(down)));
        }
        UInt ownLeft = mux(chosenOcc.lt(shape.reservedFlits()), lit(shape.reservedFlits(), w).sub(chosenOcc), lit(0, w));
        UInt sharedLeft = lit(shape.sharedFlits(), w).sub(sharedUsed);
        free.assign(ownLeft.add(sharedLeft));
        occupied.assign(total);
        underflow.assign(bad);
    }
}
