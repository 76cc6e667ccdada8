package org.flitkit.env.nrc.switchcore;


import static org.flitkit.formats.th2.FlitLayouts.HEAD;
import static org.flitkit.formats.th2.FlitLayouts.ROUTE;

import java.util.List;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.Th2;

/** 198-bit flits as four 64-bit limbs (least significant first), built by the format's field handles. */
final class Flits {
    static final int LIMBS = 4;

    private Flits() {
    }

    static long get(long[] f, Field fd) {
        return get(f, fd.lsb(), fd.width());
    }

    static long get(long[] f, int lsb, int width) {
        long v = 0;
        for (int b = 0; b < width; b++) {
            int i = lsb + b;
            v |= ((f[i >> 6] >>> (i & 63)) & 1L) << b;
        }
        return v;
    }

    static void set(long[] f, Field fd, long value) {
        set(f, fd.lsb(), fd.width(), value);
    }

    static void set(long[] f, int lsb, int width, long value) {
        for (int b = 0; b < width; b++) {
            int i = lsb + b;
            long bit = (value >>> b) & 1L;
            f[i >> 6] = (f[i >> 6] & ~(1L << (i & 63))) | (bit << (i & 63));
        }
    }

    static int kind(long[] f) {
        return (int) get(f, 196, 2);
    }

    /**
     * A data packet: head (RtType/VC/Len/DestID/SrcID, the packet id in PacketID) and len - 1 payload flits
     * filled from the id, so corruption shows. RtType table unless {@code route} is given (source routing).
     */
    static long[][] packet(long id, int vc, int len, int destId, int srcId, List<Integer> route, int hopPtr) {
        int n = Math.max(len, 1);
        long[][] flits = new long[n][LIMBS];
        long[] h = flits[0];
        set(h, DataLayouts.HEAD.KIND, n == 1 ? Th2.KIND_HEAD | Th2.KIND_TAIL : Th2.KIND_HEAD);
        set(h, DataLayouts.HEAD.VC, vc);
        set(h, DataLayouts.HEAD.LEN, len);
        set(h, DataLayouts.HEAD.DEST_ID, destId);
        set(h, DataLayouts.HEAD.SRC_ID, srcId);
        set(h, DataLayouts.HEAD.PACKET_ID, id);
        if (route != null) {
            set(h, DataLayouts.HEAD.RT_TYPE, Th2.RT_SOURCE);
            set(h, HEAD.ROUTE.lsb() + ROUTE.HOP_NUM.lsb(), ROUTE.HOP_NUM.width(), route.size());
            for (int i = 0; i < route.size(); i++) {
                set(h, HEAD.ROUTE.lsb() + ROUTE.hop(i).lsb(), 5, route.get(i));
            }
            set(h, DataLayouts.HEAD.HOP_PTR, hopPtr);
        } else {
            set(h, DataLayouts.HEAD.RT_TYPE, Th2.RT_TABLE);
        }
        long x = id * 0x9E3779B97F4A7C15L + 1;
        for (int k = 1; k < n; k++) {
            long[] f = flits[k];
            for (int l = 0; l < LIMBS; l++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
                f[l] = x;
            }
            f[3] &= (1L << (196 - 192)) - 1;
            set(f, DataLayouts.BODY.KIND, k == n - 1 ? Th2.KIND_TAIL : Th2.KIND_BODY);
        }
        return flits;
    }

    static String hex(long[] f) {
        return String.format("%016x_%016x_%016x_%016x", f[3], f[2], f[1], f[0]);
    }
}
