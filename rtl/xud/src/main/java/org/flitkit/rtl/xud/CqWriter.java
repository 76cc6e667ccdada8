package org.flitkit.rtl.xud;

import static org.flitkit.hdl.Hdl.*;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.formats.xud.XudFormat;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.hdl.lib.Counter;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.rtl.xud.XudPorts.DmaWrite;

/**
 * Writes completion entries to a ring in host memory: entry i goes to {@code base + (i mod depth) * 32}
 * with its owner bit set to the ring's current phase (1 on the first pass, flipped at each wrap), so the
 * consumer sees a new entry without a producer-index register. Paper section 2.2/2.3 (completions are
 * written for the host to poll).
 */
public final class CqWriter extends Module {
    public final Decoupled<UInt> in = input(XudPorts.cqeStream());
    public final Decoupled<DmaWrite> out = output(Decoupled.of(DmaWrite::new));

    public CqWriter(long base, int depth) {
        int log = Bitwise.log2Ceil(depth);
        // producer index with a wrap bit: the owner bit flips on every lap of the ring
        UInt pi = Counter.enabled(in.fire(), 1L << (log + 1)).named("pi").value;
        UInt index = log == 0 ? lit(0, 1) : pi.bits(log - 1, 0);
        out.valid.assign(in.valid);
        in.ready.assign(out.ready);
        out.bits.addr.assign(lit(base, 64).add(index.pad(64).shl(5).bits(63, 0)));
        out.bits.data.assign(LayoutBits.with(in.bits, XudFormat.CQE_OWNER, pi.bit(log).not()));
        out.bits.len.assign(XudFormat.CQE_BYTES);
    }
}
