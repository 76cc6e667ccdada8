package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.fromBools;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Data;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.UInt;

/**
 * Weighted round robin over {@code weights.size()} inputs (the cHPP function arbiter, docs/chpp-dma.md): the input
 * granted last keeps the grant for up to {@code weights[i]} consecutive beats while it stays valid; then, or as
 * soon as it has nothing to offer, the first valid input after it in ring order wins and starts a new burst. With
 * every input backlogged, input i gets exactly weights[i] of every sum(weights) grants. Unused credit is forfeited
 * once another input is granted (no deficit carried). One grant per cycle; all weights 1 = {@code RRArbiter}.
 */
public final class WeightedRRArbiter<T extends Data> extends ArbiterBase<T> {
    /** Credit counter width: weights up to 255. */
    public static final int CREDIT_BITS = 8;

    /** the input that moved a beat last */
    private final UInt lastGrant;
    /** further beats lastGrant may move in its current burst */
    private final UInt credit;

    public WeightedRRArbiter(Supplier<T> gen, List<Integer> weights) {
        super(gen, checked(weights).size(), Lock.none());
        int n = weights.size();
        lastGrant = regInit(UInt(chosen.width()), n - 1).named("lastGrant");
        credit = regInit(UInt(CREDIT_BITS), 0).named("credit");

        UInt valid = fromBools(valids);
        Bool stay = valid.bit(lastGrant).and(credit.ne(0));
        List<Bool> next = RRArbiter.nextAfter(valids, lastGrant);
        for (int i = 0; i < n; i++) {
            freeGrant.get(i).assign(mux(stay, lastGrant.eq(i), next.get(i)));
        }

        Map<Integer, UInt> reload = new HashMap<>();
        for (int i = 0; i < n; i++) {
            reload.put(i, lit(weights.get(i) - 1, CREDIT_BITS));
        }
        UInt burst = MuxLookup(chosen, lit(0, CREDIT_BITS), reload);
        when(out.fire(), () -> {
            when(chosen.eq(lastGrant).and(credit.ne(0)), () -> credit.assign(credit.sub(1)))
                    .otherwise(() -> {
                        lastGrant.assign(chosen);
                        credit.assign(burst);
                    });
        });
    }

    private static List<Integer> checked(List<Integer> weights) {
        if (weights == null || weights.isEmpty()) {
            throw new HdlException("WeightedRRArbiter needs at least one weight, got " + weights);
        }
        for (int i = 0; i < weights.size(); i++) {
            Integer w = weights.get(i);
            if (w == null || w < 1 || w > (1 << CREDIT_BITS) - 1) {
                throw new HdlException("weight " + w + " of input " + i + " outside 1.." + ((1 << CREDIT_BITS) - 1));
            }
        }
        return weights;
    }
}
