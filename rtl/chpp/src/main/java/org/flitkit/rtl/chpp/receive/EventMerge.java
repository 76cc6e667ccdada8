package org.flitkit.rtl.chpp.receive;

import org.flitkit.rtl.chpp.Counters;
import org.flitkit.rtl.chpp.Entries;
import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.hdl.lib.Bitwise.log2Up;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.RRArbiter;

/**
 * Round-robin merge of {@code n} completion-entry streams into one (paper section 4.2: NAP and PUT share the receive
 * completion ring; dispatch refusals post there too): each entry is one 128-bit beat, so no lock is needed; with
 * every source backlogged each gets exactly one entry in n. Feeds {@link CompletionRing#in}. docs/chpp-upload.md.
 */
public final class EventMerge extends Module {
    /** Largest source count: the merge is one library {@code RRArbiter}, a priority encoder over the sources. */
    public static final int MAX_SOURCES = 64;

    public final int n;
    /** Entry sources (formats/chpp completion entries, Phase ignored downstream). */
    public final Vec<Decoupled<UInt>> in;
    /** Merged entries toward the ring. */
    public final Decoupled<UInt> out;
    /** Source of the entry on {@link #out} (meaningful while {@code out.valid}). */
    public final UInt chosen;
    /** Entries taken from each source (saturating 32-bit). */
    public final Vec<UInt> taken;

    public EventMerge(int n) {
        // checked before the module exists, so a bad count fails with its own message even outside elaboration
        this(checkSources(n), true);
    }

    private static int checkSources(int n) {
        if (n < 1 || n > MAX_SOURCES) {
            throw new IllegalArgumentException("EventMerge: sources must be 1.." + MAX_SOURCES + ", got " + n);
        }
        return n;
    }

    private EventMerge(int n, boolean checked) {
        this.n = n;
        in = input(Vec(n, () -> Decoupled.of(UInt(Entries.BITS))));
        out = output(Decoupled.of(UInt(Entries.BITS)));
        chosen = output(UInt(log2Up(Math.max(2, n))));
        taken = output(Vec(n, () -> UInt(Counters.BITS)));

        RRArbiter<UInt> arb = instance("arb", new RRArbiter<>(() -> UInt(Entries.BITS), n));
        for (int i = 0; i < n; i++) {
            arb.in.get(i).connect(in.get(i));
        }
        out.connect(arb.out);
        chosen.assign(arb.chosen.pad(chosen.width()));
        for (int i = 0; i < n; i++) {
            taken.get(i).assign(Counters.count(in.get(i).fire(), "count" + i));
        }
    }
}
