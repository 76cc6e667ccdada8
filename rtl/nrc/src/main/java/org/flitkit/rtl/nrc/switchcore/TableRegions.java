package org.flitkit.rtl.nrc.switchcore;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * How every input's routing table is indexed (docs/th2-nrc-switch.md, "Tables by region"): with {@code localBits}
 * 0 (reset) by DestID's low bits, as one flat table; with {@code localBits} L above 0, a DestID of the chip's own
 * {@code region} (DestID &gt;&gt; L equal to it) by its low L bits, any other by 2^L + (DestID &gt;&gt; L), one entry
 * per region. An empty region entry, or one past the table, allows the {@code fallback} outputs. Spec:
 * 20-th2-management.md, "The system" (distributed table routing on ~18,304 nodes).
 */
public final class TableRegions extends Bundle {
    public static final int LOCAL_BITS = 4;
    public static final int REGION_BITS = 16;
    /** a region no DestID is in with local bits above 0: for a chip whose tables hold no region's DestIDs one by one */
    public static final int NO_REGION = 0xFFFF;

    public final UInt localBits = UInt(LOCAL_BITS);
    public final UInt region = UInt(REGION_BITS);
    public final UInt fallback;

    public TableRegions(SwitchParams p) {
        fallback = UInt(p.ports());
    }

    /** The entry a packet to {@code destId} reads, as the hardware computes it; -1: none (past the table). */
    public static int index(int destId, int localBits, int region, int entries) {
        if (localBits == 0) {
            return destId & (entries - 1);
        }
        int high = destId >>> localBits;
        long i = high == region ? destId & ((1 << localBits) - 1) : (1L << localBits) + high;
        return i < entries ? (int) i : -1;
    }

    /** Whether {@code destId} reads a region entry, the kind that falls back when empty. */
    public static boolean regionEntry(int destId, int localBits, int region) {
        return localBits != 0 && destId >>> localBits != region;
    }

    /**
     * The outputs a packet to {@code destId} may take, from the entry the switch reads ({@code raw}, 0 when the index
     * is past the table) and the fallback.
     */
    public static int allowed(int destId, int localBits, int region, int raw, int fallback) {
        return raw == 0 && regionEntry(destId, localBits, region) ? fallback : raw;
    }
}
