package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.*;
import static org.flitkit.hdl.lib.OneHot.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.UInt;

/**
 * Round-robin arbiter (chisel3.util.RRArbiter): the first valid input after the one granted last wins,
 * wrapping around, so under full load every input gets an equal share and none starves. Input 0 goes
 * first after reset. The grant holds for a stalled beat and, with a {@link Lock}, for a whole packet.
 */
public final class RRArbiter<T extends Data> extends ArbiterBase<T> {
    /** the input that moved a beat last */
    private final UInt lastGrant;

    public RRArbiter(Supplier<T> gen, int n) {
        this(gen, n, Lock.none());
    }

    public RRArbiter(Supplier<T> gen, int n, Lock<T> lock) {
        super(gen, n, lock);
        lastGrant = regInit(UInt(chosen.width()), n - 1);
        when(out.fire(), () -> lastGrant.assign(chosen));

        List<Bool> next = nextAfter(valids, lastGrant);
        for (int i = 0; i < n; i++) {
            freeGrant.get(i).assign(next.get(i));
        }
    }

    /** One-hot: the first of {@code valids} after input {@code last} in ring order (none when none is valid). */
    static List<Bool> nextAfter(List<Bool> valids, UInt last) {
        int n = valids.size();
        List<Bool> afterLast = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            afterLast.add(valids.get(i).and(last.lt(i)));
        }
        Bool wrapAround = fromBools(afterLast).orR().not();
        List<Bool> next = PriorityEncoderOH(afterLast);
        List<Bool> first = PriorityEncoderOH(valids);
        List<Bool> pick = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            pick.add(mux(wrapAround, first.get(i), next.get(i)));
        }
        return pick;
    }
}
