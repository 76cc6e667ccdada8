package org.flitkit.hdl.lib;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;

/**
 * Splits each {@code wordWidth}-bit word from {@code in} into {@code beats = ceil(wordWidth / beatWidth)}
 * beats on {@code out}, least significant beat first; the last beat is zero-padded at the top (a
 * 198-bit flit becomes ten 20-bit beats, the tenth carrying bits 197..180). The next word is accepted
 * on the cycle the last beat leaves, so back-to-back words stream with no gap ({@code in.ready} then
 * depends on {@code out.ready}). {@code last} marks the final beat of each word.
 */
public final class WidthSerializer extends Module {
    public final Decoupled<UInt> in;
    public final Decoupled<UInt> out;
    /** High with the final beat of a word (qualify with {@code out.valid}). */
    public final Bool last;
    public final int wordWidth;
    public final int beatWidth;
    public final int beats;

    /** the word being sent, shifted down by one beat per transfer */
    private final UInt shift;
    private final Bool busy;

    public WidthSerializer(int wordWidth, int beatWidth) {
        this.wordWidth = wordWidth;
        this.beatWidth = beatWidth;
        this.beats = beatsFor(wordWidth, beatWidth);
        in = input(Decoupled.of(UInt(wordWidth)));
        out = output(Decoupled.of(UInt(beatWidth)));
        last = output(Bool());

        shift = reg(UInt(beats * beatWidth));
        busy = regInit(Bool(), 0);
        Counter beat = new Counter(beats).named("beat");

        out.valid.assign(busy);
        out.bits.assign(shift.trunc(beatWidth));
        last.assign(beat.isLast());
        in.ready.assign(busy.not().or(out.ready.and(beat.isLast())));
        when(out.fire(), () -> {
            if (beats > 1) {
                shift.assign(shift.shr(beatWidth));
            }
            when(beat.inc(), () -> busy.assign(FALSE()));
        });
        when(in.fire(), () -> {
            shift.assign(in.bits);
            busy.assign(TRUE());
        });
    }

    /** Beats per word: ceil(wordWidth / beatWidth). */
    public static int beatsFor(int wordWidth, int beatWidth) {
        if (wordWidth < 1 || beatWidth < 1) {
            throw new HdlException("widths must be positive: word " + wordWidth + ", beat " + beatWidth);
        }
        return (wordWidth + beatWidth - 1) / beatWidth;
    }
}
