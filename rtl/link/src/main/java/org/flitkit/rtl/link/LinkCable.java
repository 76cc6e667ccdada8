package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.LinkFrame;

/**
 * A cable between two link layers (testbench side): each direction delays what the lanes carry by its own
 * latency, XORs the error mask poked while it enters, delivers zeros on the lanes set in {@code lanesDown} (a
 * dead lane) and on all lanes while {@code cut} was high. docs/th2-link.md, "Cable model".
 */
public final class LinkCable extends Module {
    public final int width;
    /** A -> B: A's wireOut in, B's wireIn out */
    public final UInt aTx;
    public final UInt bRx;
    /** B -> A */
    public final UInt bTx;
    public final UInt aRx;
    public final Bool cutAB = input(Bool());
    public final Bool cutBA = input(Bool());
    public final UInt errorAB;
    public final UInt errorBA;
    /** dead lanes A -> B, one bit per lane (the wire's width split in {@link LinkFrame#LANES} equal lanes) */
    public final UInt lanesDownAB = input(UInt(LinkFrame.LANES));
    public final UInt lanesDownBA = input(UInt(LinkFrame.LANES));

    public LinkCable(int latencyAB, int latencyBA) {
        this(LinkFrame.BITS, latencyAB, latencyBA);
    }

    public LinkCable(int width, int latencyAB, int latencyBA) {
        if (width < LinkFrame.LANES || width % LinkFrame.LANES != 0) {
            throw new IllegalArgumentException("cable width must be a positive multiple of the " + LinkFrame.LANES
                    + " lanes, got " + width);
        }
        for (int l : new int[] {latencyAB, latencyBA}) {
            if (l < 1 || l > 4096) {
                throw new IllegalArgumentException("cable latency must be 1..4096 cycles, got " + l);
            }
        }
        this.width = width;
        aTx = input(UInt(width));
        bRx = output(UInt(width));
        bTx = input(UInt(width));
        aRx = output(UInt(width));
        errorAB = input(UInt(width));
        errorBA = input(UInt(width));
        bRx.assign(direction("ab", aTx, errorAB, cutAB, lanesDownAB, latencyAB));
        aRx.assign(direction("ba", bTx, errorBA, cutBA, lanesDownBA, latencyBA));
    }

    private UInt direction(String name, UInt tx, UInt error, Bool cut, UInt lanesDown, int latency) {
        int lw = width / LinkFrame.LANES;
        UInt[] alive = new UInt[LinkFrame.LANES];
        for (int i = 0; i < LinkFrame.LANES; i++) {
            alive[LinkFrame.LANES - 1 - i] = mux(lanesDown.bit(i), lit(0, lw), lit((1L << lw) - 1, lw));
        }
        UInt x = mux(cut, lit(0, width), tx.xor(error).and(cat(alive)));
        for (int i = 0; i < latency; i++) {
            x = regNext(x, 0).named(name + "_d" + i);
        }
        return x;
    }
}
