package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.LinkFrame;

/**
 * The transmit side of the lanes: while the link is up, spreads each frame over the lanes in use, one frame per
 * 8/w cycles on w lanes (unused lanes send zeros); while it is down, sends the training words. The wire is a
 * function of registers only. docs/th2-link.md, "Lanes".
 */
public final class TxGearbox extends Module {
    /** the frame to send when {@link #slot} is high */
    public final UInt frame = input(UInt(LinkFrame.BITS));
    public final Bool up = input(Bool());
    /** negotiated width: 8, 4, 2 or 1 */
    public final UInt width = input(UInt(4));
    /** the lanes the peer receives well (the first {@code width} of them are used) */
    public final UInt lanes = input(UInt(LinkFrame.LANES));
    /** the training words, sent while the link is down */
    public final UInt words = input(UInt(LinkFrame.BITS));
    /** a frame slot: {@link #frame} is taken this cycle */
    public final Bool slot = output(Bool());
    public final UInt wire = output(UInt(LinkFrame.BITS));

    public TxGearbox() {
        UInt phase = regInit(UInt(3), 0).named("phase");
        Bool sending = regNext(up, 0).named("sending");
        // the first cycle up is a slot; then one per 8/w cycles
        Bool atSlot = up.and(sending.not().or(phase.eq(LaneMap.lastPhase(width)))).named("atSlot");
        slot.assign(atSlot);
        UInt held = regEnable(frame, atSlot).named("held");
        phase.assign(mux(up.not().or(atSlot), lit(0, 3), phase.add(1)));
        UInt shifted = mux(width.eq(4), phase.shl(2), mux(width.eq(2), phase.shl(1), mux(width.eq(1), phase, lit(0, 3))))
                .bits(2, 0);
        UInt[] slotOfLane = LaneMap.slots(lanes);
        UInt[] out = new UInt[LaneMap.LANES];
        for (int i = 0; i < LaneMap.LANES; i++) {
            UInt idx = shifted.or(slotOfLane[i].bits(2, 0)).named("chunkOfLane" + i);
            UInt c = LaneMap.chunk(held, 0);
            for (int j = 1; j < LaneMap.LANES; j++) {
                c = mux(idx.eq(j), LaneMap.chunk(held, j), c);
            }
            UInt data = mux(LaneMap.used(lanes, slotOfLane[i], width, i), c, lit(0, LaneMap.LW));
            out[LaneMap.LANES - 1 - i] = mux(sending, data, LaneMap.chunk(words, i));
        }
        wire.assign(cat(out));
    }
}
