package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.rtl.mnc.MncParams.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;

/**
 * The link-choice rule of the multi-rail paper (section 2.3.2): a FREE link first, and if there is none, the
 * BUSY links in round-robin order. Combinational: {@code links[k]} is the k-th preferred allowed link, FREE
 * ones in rotation from {@code ptr} before BUSY ones in rotation from {@code ptr}, so the first {@code n}
 * entries are n different links; {@code allowed} counts them. Used for send links (local {@code NICStatus})
 * and receive links (the destination's states from its SAck).
 */
public final class LinkChooser extends Module {
    public final UInt mask = input(UInt(4));
    public final UInt busy = input(UInt(4));
    public final UInt ptr = input(UInt(RAIL_BITS));
    public final Vec<UInt> links;
    public final UInt allowed = output(UInt(3));

    public LinkChooser(int rails) {
        links = output(Vec(rails, () -> UInt(RAIL_BITS)));
        List<Bool> valid = new ArrayList<>();
        List<UInt> rail = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            for (int j = 0; j < rails; j++) {
                Map<Integer, UInt> rot = new HashMap<>();
                for (int p = 0; p < rails; p++) {
                    rot.put(p, lit((p + j) % rails, RAIL_BITS));
                }
                UInt r = MuxLookup(ptr, lit(j % rails, RAIL_BITS), rot);
                Bool ok = mask.bit(r);
                valid.add(pass == 0 ? ok.and(busy.bit(r).not()) : ok.and(busy.bit(r)));
                rail.add(r);
            }
        }
        // position of each entry among the valid ones: a prefix count
        List<UInt> pos = new ArrayList<>();
        UInt count = lit(0, 3);
        for (Bool v : valid) {
            pos.add(count);
            count = count.add(v.asUInt().pad(3));
        }
        for (int k = 0; k < rails; k++) {
            List<Bool> sel = new ArrayList<>();
            for (int e = 0; e < valid.size(); e++) {
                sel.add(valid.get(e).and(pos.get(e).eq(k)));
            }
            links.get(k).assign(mux(orAll(sel), Mux1H(sel, rail), lit(0, RAIL_BITS)));
        }
        UInt n = lit(0, 3);
        for (int r = 0; r < rails; r++) {
            n = n.add(mask.bit(r).asUInt().pad(3));
        }
        allowed.assign(n);
    }
}
