package org.flitkit.rtl.nrc.switchcore;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.th2.DataLayouts;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.Rng;

/** Data packets of the switch core as lists of 198-bit flits, built by the format's field handles (docs/th2-formats.md). */
final class DataPackets {
    private DataPackets() {
    }

    static BigInteger set(BigInteger flit, Field f, long value) {
        BigInteger mask = BigInteger.ONE.shiftLeft(f.width()).subtract(BigInteger.ONE);
        return flit.andNot(mask.shiftLeft(f.lsb())).or(BigInteger.valueOf(value).and(mask).shiftLeft(f.lsb()));
    }

    static long get(BigInteger flit, Field f) {
        return flit.shiftRight(f.lsb()).and(BigInteger.ONE.shiftLeft(f.width()).subtract(BigInteger.ONE)).longValueExact();
    }

    /**
     * A table-routed packet from {@code input} (its SrcID) on {@code vc}, {@code len} flits, to {@code destId}; PacketID
     * {@code id}; body and tail flits carry random payload, so a flit swapped or corrupted shows.
     */
    static List<BigInteger> table(Rng rnd, long id, int input, int vc, int len, int destId) {
        BigInteger head = BigInteger.ZERO;
        head = set(head, DataLayouts.HEAD.KIND, len == 1 ? Th2.KIND_HEAD | Th2.KIND_TAIL : Th2.KIND_HEAD);
        head = set(head, DataLayouts.HEAD.RT_TYPE, Th2.RT_TABLE);
        head = set(head, DataLayouts.HEAD.VC, vc);
        head = set(head, DataLayouts.HEAD.LEN, len);
        head = set(head, DataLayouts.HEAD.DEST_ID, destId);
        head = set(head, DataLayouts.HEAD.SRC_ID, input);
        head = set(head, DataLayouts.HEAD.PACKET_ID, id);
        List<BigInteger> flits = new ArrayList<>(List.of(head));
        for (int k = 1; k < len; k++) {
            flits.add(set(rnd.bits(DataLayouts.BODY.PAYLOAD.width()), DataLayouts.BODY.KIND, k == len - 1 ? Th2.KIND_TAIL : Th2.KIND_BODY));
        }
        return flits;
    }

    /** The same packet source-routed by {@code route} with HopPtr {@code hopPtr}. */
    static List<BigInteger> sourceRouted(List<BigInteger> packet, List<Integer> route, int hopPtr) {
        int routeLsb = DataLayouts.HEAD.ROUTE.lsb();
        BigInteger head = set(packet.get(0), DataLayouts.HEAD.RT_TYPE, Th2.RT_SOURCE);
        head = set(head, FlitLayouts.ROUTE.HOP_NUM.shifted("HopNum", routeLsb), route.size());
        for (int i = 0; i < route.size(); i++) {
            head = set(head, FlitLayouts.ROUTE.hop(i).shifted("Hop", routeLsb), route.get(i));
        }
        head = set(head, DataLayouts.HEAD.HOP_PTR, hopPtr);
        List<BigInteger> out = new ArrayList<>(packet);
        out.set(0, head);
        return out;
    }

    /** The packet as it leaves a core by source route: HopPtr incremented in its head. */
    static List<BigInteger> hopped(List<BigInteger> packet) {
        List<BigInteger> out = new ArrayList<>(packet);
        out.set(0, set(packet.get(0), DataLayouts.HEAD.HOP_PTR, get(packet.get(0), DataLayouts.HEAD.HOP_PTR) + 1));
        return out;
    }

    static int vc(List<BigInteger> packet) {
        return (int) get(packet.get(0), DataLayouts.HEAD.VC);
    }

    static int src(List<BigInteger> packet) {
        return (int) get(packet.get(0), DataLayouts.HEAD.SRC_ID);
    }

    static boolean isHead(BigInteger flit) {
        return flit.testBit(DataLayouts.HEAD.KIND.lsb() + 1);
    }

    /**
     * Whether a buffer of {@code p}'s shape holding {@code occ} flits per VC has room for {@code len} more on
     * {@code vc}: its free reserved slots plus the free shared pool (docs/th2-nrc-switch.md, "reservation scheme").
     */
    static boolean fits(SwitchParams p, int[] occ, int vc, int len) {
        int shared = 0;
        for (int v = 0; v < p.vcs(); v++) {
            shared += Math.max(0, occ[v] - p.reservedFlits());
        }
        return len <= Math.max(0, p.reservedFlits() - occ[vc]) + Math.max(0, p.sharedFlits() - shared);
    }
}
