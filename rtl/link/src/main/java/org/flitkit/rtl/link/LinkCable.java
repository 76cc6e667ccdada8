package org.flitkit.rtl.link;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.LinkFrame;

/**
 * A cable between two link layers (testbench side): each direction delays frames by its own latency, XORs the
 * error mask poked while the frame enters, and delivers zeros for frames that entered while {@code cut} was high.
 * docs/th2-link.md, "Cable model".
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

    public LinkCable(int latencyAB, int latencyBA) {
        this(LinkFrame.BITS, latencyAB, latencyBA);
    }

    public LinkCable(int width, int latencyAB, int latencyBA) {
        if (width < 1) {
            throw new IllegalArgumentException("cable width must be >= 1, got " + width);
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
        bRx.assign(direction("ab", aTx, errorAB, cutAB, latencyAB));
        aRx.assign(direction("ba", bTx, errorBA, cutBA, latencyBA));
    }

    private UInt direction(String name, UInt tx, UInt error, Bool cut, int latency) {
        UInt x = mux(cut, lit(0, width), tx.xor(error));
        for (int i = 0; i < latency; i++) {
            x = regNext(x, 0).named(name + "_d" + i);
        }
        return x;
    }
}
