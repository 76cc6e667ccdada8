package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.log2Up;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Valid;

/**
 * Arbitration across VPs (paper: NIC flow (1), "descriptor queue management and arbitration"): round robin
 * over the VPs that have a descriptor, are not parked by a fence, and have no fetch in flight. One fetch per
 * VP at a time keeps each VP's descriptors in order while other VPs' fetches overlap. docs/th2-nic.md.
 */
public final class DescArbiter extends Module {
    public final UInt pending;
    /** VPs parked by a fence (not eligible). */
    public final UInt parked;
    /** The VP whose descriptor to fetch next. */
    public final Decoupled<UInt> grant = output(Decoupled.of(UInt(6)));
    /** The fetch of this VP was dispatched (used, skipped or parked): the VP may be chosen again. */
    public final Valid<UInt> done = input(Valid.of(UInt(6)));
    /** Bit v: a fetch of VP v is in flight. */
    public final UInt busy;

    public DescArbiter(int vps) {
        pending = input(UInt(vps));
        parked = input(UInt(vps));
        busy = output(UInt(vps));
        UInt inFlight = regInit(UInt(vps), 0).named("inFlight");
        UInt last = regInit(UInt(log2Up(vps)), vps - 1).named("last");
        UInt eligible = pending.and(parked.not()).and(inFlight.not());

        // the first eligible VP after the last grant, wrapping: search the upper part, then all
        List<Bool> upper = new ArrayList<>();
        List<Bool> any = new ArrayList<>();
        List<UInt> ids = new ArrayList<>();
        for (int v = 0; v < vps; v++) {
            upper.add(eligible.bit(v).and(last.lt(v)));
            ids.add(lit(v, 6));
        }
        for (int v = 0; v < vps; v++) {
            any.add(eligible.bit(v));
        }
        List<Bool> sels = new ArrayList<>(upper);
        sels.addAll(any);
        List<UInt> vals = new ArrayList<>(ids);
        vals.addAll(ids);
        UInt pick = priorityMux(sels, vals);

        grant.valid.assign(eligible.orR());
        grant.bits.assign(pick);
        UInt set = mux(grant.fire(), lit(1, vps).shlTrunc(pick), lit(0, vps));
        UInt clear = mux(done.valid, lit(1, vps).shlTrunc(done.bits), lit(0, vps));
        inFlight.assign(inFlight.and(clear.not()).or(set));
        when(grant.fire(), () -> last.assign(pick.trunc(last.width())));
        busy.assign(inFlight);
    }
}
