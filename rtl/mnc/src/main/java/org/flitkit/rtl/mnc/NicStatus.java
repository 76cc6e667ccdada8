package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;

/**
 * {@code NICStatus[MAXLINKNUM]} (multi-rail paper, section 2.3.2): one bit per local link, set (BUSY) while
 * its NIC is SDMAING or RECVING, clear (FREE) otherwise, written by the NICs every cycle and read one cycle
 * later by the dispatch unit and by SAck.
 */
public final class NicStatus extends Module {
    public final Vec<Bool> sdmaing;
    public final Vec<Bool> recving;
    /** Bit r: rail r BUSY. Four bits whatever the rail count (a SAck carries four). */
    public final UInt busy = output(UInt(4));

    public NicStatus(int rails) {
        sdmaing = input(Vec(rails, () -> Bool()));
        recving = input(Vec(rails, () -> Bool()));
        List<Bool> bits = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            bits.add(r < rails ? sdmaing.get(r).or(recving.get(r)) : FALSE());
        }
        UInt now = cat(bits.get(3), bits.get(2), bits.get(1), bits.get(0));
        busy.assign(regNext(now, 0).named("busyQ"));
    }

}
