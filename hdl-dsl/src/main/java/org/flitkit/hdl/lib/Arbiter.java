package org.flitkit.hdl.lib;

import static org.flitkit.hdl.lib.OneHot.*;

import java.util.List;
import java.util.function.Supplier;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Data;

/**
 * Fixed-priority arbiter (chisel3.util.Arbiter): among the valid inputs, input 0 wins, then 1, and so
 * on; a busy low-numbered input can starve the others. The grant holds for a stalled beat and, with a
 * {@link Lock}, for a whole packet (see {@link ArbiterBase}).
 */
public final class Arbiter<T extends Data> extends ArbiterBase<T> {
    public Arbiter(Supplier<T> gen, int n) {
        this(gen, n, Lock.none());
    }

    public Arbiter(Supplier<T> gen, int n, Lock<T> lock) {
        super(gen, n, lock);
        List<Bool> g = PriorityEncoderOH(valids);
        for (int i = 0; i < n; i++) {
            freeGrant.get(i).assign(g.get(i));
        }
    }
}
