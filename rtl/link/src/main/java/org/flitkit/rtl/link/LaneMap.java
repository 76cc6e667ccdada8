package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Bitwise;
import org.flitkit.formats.th2.LinkFrame;

/**
 * How a frame's 8 chunks of 33 bits map onto the lanes in use, shared by {@link TxGearbox} and
 * {@link RxGearbox}: at width w the k-th lane in use carries chunk p*w + k in phase p of the 8/w cycles a
 * frame takes. docs/th2-link.md, "Lanes".
 */
final class LaneMap {
    static final int LANES = LinkFrame.LANES;
    static final int LW = LinkFrame.LANE_BITS;

    private LaneMap() {
    }

    /** The last phase of a frame at {@code width} (8, 4, 2, 1 lanes): 0, 1, 3, 7. */
    static UInt lastPhase(UInt width) {
        return mux(width.eq(8), lit(0, 3), mux(width.eq(4), lit(1, 3), mux(width.eq(2), lit(3, 3), lit(7, 3))));
    }

    /**
     * Per lane, its position among the lanes set in {@code lanes} (its slot: the lanes in use below it), 4 bits so
     * it compares with a width; built once per gearbox.
     */
    static UInt[] slots(UInt lanes) {
        UInt[] slot = new UInt[LANES];
        for (int i = 0; i < LANES; i++) {
            slot[i] = i == 0 ? lit(0, 4) : Bitwise.PopCount(lanes.bits(i - 1, 0)).pad(4);
        }
        return slot;
    }

    /** Lane {@code i} (at {@code slot}) is in use at {@code width}: set in {@code lanes} and among the first {@code width}. */
    static Bool used(UInt lanes, UInt slot, UInt width, int i) {
        return lanes.bit(i).and(slot.lt(width));
    }

    /** Chunk {@code j} (bits 33j+32 : 33j) of a frame or of the lanes. */
    static UInt chunk(UInt bits, int j) {
        return bits.bits(LW * j + LW - 1, LW * j);
    }
}
