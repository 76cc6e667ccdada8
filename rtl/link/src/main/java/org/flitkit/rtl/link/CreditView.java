package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Valid;

/**
 * A sender's view of the input buffer at the far end of its link: flits in it per VC, counted up by what is sent
 * (a flit, or a whole packet at its grant) and down when the peer returns credits. A VC has room while it is
 * below its reservation or the shared slots are not all taken; {@link #free} (its reservation left plus the
 * shared slots left) tells whether a whole packet fits, as virtual cut-through needs. Used by the switch core
 * for every output and by a chip's single {@link LinkPort}. docs/th2-link.md, "Credits".
 */
public final class CreditView extends Module {
    public final BufferShape shape;
    /** flits of each VC sent (or granted) this cycle */
    public final Vec<UInt> debit;
    /** the peer freed slots */
    public final Valid<CreditReturn> returned = input(Valid.of(CreditReturn::new));
    /** the link (re)trained: the far buffer is taken as empty again (what was sent into a dead link never returns) */
    public final Bool clear = input(Bool());
    /** per VC: slots it can still fill, its reservation left plus the shared slots left */
    public final Vec<UInt> free;
    /** per VC: flits held in the far buffer or on their way */
    public final Vec<UInt> occ;
    /** flits in the far buffer, all VCs (for invariant checks) */
    public final UInt occupied;
    /** a credit return would take a VC below zero (a peer returning more than it was sent): a sticky error */
    public final Bool underflow = output(Bool());

    public CreditView(BufferShape shape) {
        this.shape = shape;
        // room for a whole credit count, so a peer returning more than it was sent is seen, not wrapped
        int w = Math.max(shape.countBits() + 1, org.flitkit.formats.th2.LinkFrame.CREDIT_BITS);
        int vcs = shape.vcs();
        debit = input(Vec(vcs, () -> UInt(w)));
        free = output(Vec(vcs, () -> UInt(w)));
        occ = output(Vec(vcs, () -> UInt(w)));
        occupied = output(UInt(w));
        UInt sharedUsed = lit(0, w);
        UInt total = lit(0, w);
        Bool underflowSeen = regInit(Bool(), 0).named("underflowSeen");
        UInt[] o = new UInt[vcs];
        for (int v = 0; v < vcs; v++) {
            UInt held = o[v] = regInit(UInt(w), 0).named("occ" + v);
            sharedUsed = sharedUsed.add(mux(held.gt(shape.reservedFlits()), held.sub(shape.reservedFlits()), lit(0, w)));
            total = total.add(held);
            UInt up = debit.get(v);
            UInt down = mux(returned.valid.and(returned.bits.vc.eq(v)), returned.bits.count.pad(w), lit(0, w));
            Bool under = held.add(up).lt(down);
            when(under.and(clear.not()), () -> underflowSeen.assign(TRUE()));
            // cleared, the view keeps only what is sent in the same cycle
            held.assign(mux(clear, up, mux(under, lit(0, w), held.add(up).sub(down))));
            occ.get(v).assign(held);
        }
        UInt sharedLeft = mux(sharedUsed.lt(shape.sharedFlits()), lit(shape.sharedFlits(), w).sub(sharedUsed), lit(0, w))
                .named("sharedLeft");
        for (int v = 0; v < vcs; v++) {
            UInt ownLeft = mux(o[v].lt(shape.reservedFlits()), lit(shape.reservedFlits(), w).sub(o[v]), lit(0, w));
            free.get(v).assign(ownLeft.add(sharedLeft));
        }
        occupied.assign(total);
        underflow.assign(underflowSeen);
    }
}
