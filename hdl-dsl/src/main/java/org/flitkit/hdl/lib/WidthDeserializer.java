package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;

/**
 * The inverse of {@link WidthSerializer}: collects {@code beats = ceil(wordWidth / beatWidth)} beats from
 * {@code in}, least significant first, into one {@code wordWidth}-bit word on {@code out} (padding bits of
 * the last beat are dropped). While a word waits on {@code out}, the first beat of the next word is
 * accepted in the same cycle the word leaves ({@code in.ready = !out.valid || out.ready}).
 */
public final class WidthDeserializer extends Module {
    public final Decoupled<UInt> in;
    public final Decoupled<UInt> out;
    public final int wordWidth;
    public final int beatWidth;
    public final int beats;

    /** beats enter at the top and move down, so the first beat ends in the lowest slot */
    private final UInt shift;
    private final Bool full;

    public WidthDeserializer(int wordWidth, int beatWidth) {
        this.wordWidth = wordWidth;
        this.beatWidth = beatWidth;
        this.beats = WidthSerializer.beatsFor(wordWidth, beatWidth);
        in = input(Decoupled.of(UInt(beatWidth)));
        out = output(Decoupled.of(UInt(wordWidth)));

        shift = reg(UInt(beats * beatWidth));
        full = regInit(Bool(), 0);
        Counter beat = new Counter(beats).named("beat");

        out.valid.assign(full);
        out.bits.assign(shift.trunc(wordWidth));
        in.ready.assign(full.not().or(out.ready));
        when(out.fire(), () -> full.assign(FALSE()));
        when(in.fire(), () -> {
            shift.assign(beats > 1 ? cat(in.bits, shift.shr(beatWidth)) : in.bits);
            when(beat.inc(), () -> full.assign(TRUE()));
        });
    }
}
