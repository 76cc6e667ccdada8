package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * A flit on a distributed-full-switch link: the first flit of a packet is the pilot (its {@code dst} sets up the
 * path), the one with {@code last} tears it down ("Multi-rings and distributed full switches", section "Distributed
 * full switches").
 */
public final class DfsFlit extends Bundle {
    public static final int DATA_BITS = 16;
    public final Bool valid = Bool();
    public final Bool last = Bool();
    public final UInt dst;
    public final UInt data = UInt(DATA_BITS);

    public DfsFlit(int nodeBits) {
        dst = UInt(nodeBits);
    }
}
