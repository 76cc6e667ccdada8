package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.LinkFrame;

/**
 * The receive side of the lanes: gathers the lanes in use into the frame of the last 8/w cycles and finds the
 * frame boundary after link-up by the first CRC-good candidate (as ATM cells are delineated by their header
 * check), then takes one frame per 8/w cycles until the link goes down. docs/th2-link.md, "Lanes".
 */
public final class RxGearbox extends Module {
    public final UInt wire = input(UInt(LinkFrame.BITS));
    public final Bool up = input(Bool());
    /** negotiated width: 8, 4, 2 or 1 */
    public final UInt width = input(UInt(4));
    /** the lanes this end receives well (the first {@code width} of them carry frames) */
    public final UInt lanes = input(UInt(LinkFrame.LANES));
    /** the candidate frame's CRC is good (computed outside on {@link #frame}) */
    public final Bool crcOk = input(Bool());
    /** the frame ending this cycle (a candidate until locked) */
    public final UInt frame = output(UInt(LinkFrame.BITS));
    /** {@link #frame} is a frame: at a boundary once locked, or the CRC-good candidate that locks */
    public final Bool strobe = output(Bool());
    public final Bool locked = output(Bool());

    public RxGearbox() {
        int n = LaneMap.LANES;
        // slot k: the k-th lane in use
        UInt[] slotOfLane = LaneMap.slots(lanes);
        UInt[] slot = new UInt[n];
        for (int k = 0; k < n; k++) {
            UInt s = lit(0, LaneMap.LW);
            for (int i = k; i < n; i++) {
                Bool here = lanes.bit(i).and(slotOfLane[i].eq(k));
                s = s.or(mux(here, LaneMap.chunk(wire, i), lit(0, LaneMap.LW)));
            }
            slot[k] = s.named("slot" + k);
        }
        // slots of earlier cycles, only those a narrower width needs: slot k at delay d (1..8/w-1); they hold still
        // at full width, where no frame spans cycles
        Bool narrow = width.ne(8).named("narrow");
        UInt[][] past = new UInt[4][8];
        for (int k = 0; k < 4; k++) {
            int depth = k == 0 ? 7 : k == 1 ? 3 : 1;
            UInt x = slot[k];
            for (int d = 1; d <= depth; d++) {
                UInt held = regInit(UInt(LaneMap.LW), 0).named("slot" + k + "_d" + d);
                UInt next = x;
                when(narrow, () -> held.assign(next));
                x = held;
                past[k][d] = x;
            }
        }
        UInt[] chunks = new UInt[n];
        for (int j = 0; j < n; j++) {
            UInt w8 = slot[j];
            UInt w4 = j < 4 ? past[j][1] : slot[j - 4];
            UInt w2 = j >= 6 ? slot[j % 2] : past[j % 2][3 - j / 2];
            UInt w1 = j == 7 ? slot[0] : past[0][7 - j];
            chunks[n - 1 - j] = mux(width.eq(4), w4, mux(width.eq(2), w2, mux(width.eq(1), w1, w8)));
        }
        frame.assign(cat(chunks));

        Bool isLocked = regInit(Bool(), 0).named("isLocked");
        UInt phase = regInit(UInt(3), 0).named("phase");
        Bool boundary = phase.eq(LaneMap.lastPhase(width));
        strobe.assign(up.and(mux(isLocked, boundary, crcOk)));
        locked.assign(isLocked);
        when(up.not(), () -> {
            isLocked.assign(FALSE());
            phase.assign(0);
        }).elsewhen(isLocked.not(), () -> {
            when(crcOk, () -> {
                isLocked.assign(TRUE());
                phase.assign(0);
            });
        }).otherwise(() -> phase.assign(mux(boundary, lit(0, 3), phase.add(1))));
    }
}
