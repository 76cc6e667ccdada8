package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.*;
import static org.flitkit.hdl.lib.OneHot.*;
import static org.flitkit.hdl.lib.Types.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;

/**
 * What {@link Arbiter} and {@link RRArbiter} share (Chisel's LockingArbiterLike): {@code n} input
 * streams, one output, {@code chosen} = the index of the input on the output. Once an input is granted
 * the grant holds while its beat waits for {@code out.ready} (so {@code out} obeys the {@link Decoupled}
 * rules) and, with a {@link Lock}, until the last beat of its packet has left. Subclasses only say who
 * wins when the output is free, by driving {@link #freeGrant}.
 */
public abstract class ArbiterBase<T extends Data> extends Module {
    public final Vec<Decoupled<T>> in;
    public final Decoupled<T> out;
    public final UInt chosen;
    public final int n;

    /** The valid bits of the inputs. */
    protected final List<Bool> valids = new ArrayList<>();
    /** Winner when no grant is held: one-hot among the valid inputs (all low if none); driven by subclasses. */
    protected final List<Bool> freeGrant = new ArrayList<>();
    /** a grant is held: a stalled beat or an unfinished packet */
    private final Bool locked;
    private final UInt lockedIdx;

    protected ArbiterBase(Supplier<T> gen, int n, Lock<T> lock) {
        if (n < 1) {
            throw new HdlException(getClass().getSimpleName() + " needs at least one input, got " + n);
        }
        this.n = n;
        in = input(Vec(n, () -> Decoupled.of(gen)));
        out = output(Decoupled.of(gen));
        chosen = output(UInt(log2Up(n)));

        locked = regInit(Bool(), 0);
        lockedIdx = regInit(UInt(chosen.width()), 0);
        List<Bool> grant = new ArrayList<>(n);
        List<UInt> data = new ArrayList<>(n);
        List<Bool> offered = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Decoupled<T> s = in.get(i);
            valids.add(s.valid);
            freeGrant.add(wire(Bool()));
            Bool g = mux(locked, lockedIdx.eq(i), freeGrant.get(i));
            grant.add(g);
            data.add(pack(s.bits));
            offered.add(g.and(s.valid));
            s.ready.assign(out.ready.and(g));
        }
        chosen.assign(mux(locked, lockedIdx, OHToUInt(freeGrant)));
        out.valid.assign(fromBools(offered).orR());
        unpack(out.bits, Mux1H(grant, data));

        Bool last = lock.lastBeat(out);
        when(out.valid, () -> {
            locked.assign(out.ready.not().or(last.not()));
            lockedIdx.assign(chosen);
        });
    }
}
