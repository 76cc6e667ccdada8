package org.flitkit.rtl.nma;

import java.util.random.RandomGenerator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.th2.FlitLayouts;
import org.flitkit.formats.core.Layout;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;

/** Software reference of nmp_distributor: where a packet goes, and the error response it gets. */
public final class DistModel {
    public enum Where { REG, EEP, ERR, DROP_CRC, DROP_MALFORMED, DROP_DESTID }

    public record Decision(Where where, BitVector err) {
    }

    static final Layout P = PacketLayout.PACKET;

    private DistModel() {
    }

    public static Decision decide(BitVector pkt, ChipType chip, int chipId) {
        if (!PacketLayout.crcMatches(pkt)) {
            return new Decision(Where.DROP_CRC, null);
        }
        boolean framing = true;
        for (int i = 0; i < FlitLayouts.FLITS.size(); i++) {
            framing &= pkt.get(PacketLayout.FLITS.get(i).KIND) == FlitLayouts.KINDS.get(i);
        }
        framing &= pkt.get(PacketLayout.HEAD.VC) == Th2.MANAGEMENT_VC && pkt.get(PacketLayout.HEAD.LEN) == Th2.PACKET_FLITS
                && pkt.get(PacketLayout.HEAD.RT_TYPE) == Th2.RT_SOURCE && pkt.get(PacketLayout.HEAD.TYPE) == Th2.TYPE_MP
                && pkt.get(PacketLayout.HEAD.SM) == 0 && pkt.get(PacketLayout.HEAD.INST) == 1;
        for (Field gap : P.reserved()) {
            framing &= pkt.slice(gap).isZero();
        }
        long type = pkt.get(PacketLayout.BODY1.NMP_TYPE);
        framing &= headerParses(pkt, chip, chipId);
        framing &= pkt.get(PacketLayout.HEAD.HOP_PTR) <= pkt.get(new Field("HopNum", 0, 5)); // each hop guards HopPtr
        if (!framing || (type & 1) != 0) {
            return new Decision(Where.DROP_MALFORMED, null);
        }
        long dest = pkt.get(PacketLayout.HEAD.DEST_ID);
        if (dest != chipId && dest != Th2.CHIP_ID_ANY) {
            return new Decision(Where.DROP_DESTID, null);
        }
        if (pkt.get(PacketLayout.HEAD.DEST_TYPE) != chip.code()) {
            return new Decision(Where.ERR, ManagementPacket.errorResponseTo(pkt, chip, chipId, ErrorCode.BAD_DEST_TYPE, 7).toBits());
        }
        if (type == NmpType.REG_READ_REQ.code() || type == NmpType.REG_WRITE_REQ.code()) {
            return new Decision(Where.REG, null);
        }
        if (type == NmpType.EEP_READ_REQ.code() || type == NmpType.EEP_WRITE_REQ.code()) {
            return new Decision(Where.EEP, null);
        }
        return new Decision(Where.ERR, ManagementPacket.errorResponseTo(pkt, chip, chipId, ErrorCode.BAD_TYPE, 7).toBits());
    }

    /** The software model can read the header (and so answer it): chip types, VPs, routes, HopPtr. */
    static boolean headerParses(BitVector pkt, ChipType chip, int chipId) {
        try {
            ManagementPacket.errorResponseTo(pkt, chip, chipId, ErrorCode.INTERNAL, 7);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A packet of a random category: good register/E2PROM request, or one broken in one of the ways the distributor checks. */
    public static BitVector randomPacket(RandomGenerator rnd, ChipType chip, int chipId) {
        int dest = rnd.nextInt(4) == 0 ? Th2.CHIP_ID_ANY : chipId;
        ManagementPacket good = rnd.nextInt(3) == 0 ? TestPackets.eepromRequest(rnd, chip, dest)
                : TestPackets.registerRequest(rnd, chip, dest, chip.registerAddressBits());
        BitVector b = good.toBits();
        Field route = rnd.nextBoolean() ? PacketLayout.HEAD.ROUTE : PacketLayout.BODY1.RETURN_ROUTE;
        switch (rnd.nextInt(17)) {
            case 0 -> b = b.flip(rnd.nextInt(Th2.PACKET_BITS)); // CRC error (unless the flipped bit is HopPtr)
            case 1 -> b = PacketLayout.withCrc(b.with(PacketLayout.HEAD.VC, rnd.nextInt(8)));
            case 2 -> {
                Field gap = P.reserved().get(rnd.nextInt(P.reserved().size()));
                b = PacketLayout.withCrc(b.flip(gap.lsb() + rnd.nextInt(gap.width())));
            }
            case 3 -> b = TestPackets.withRawType(good, 2 * rnd.nextInt(32) + 1);
            case 4 -> b = TestPackets.withRawType(good, 2 * rnd.nextInt(32));
            case 5 -> b = PacketLayout.withCrc(b.with(PacketLayout.HEAD.DEST_ID, rnd.nextInt(0x10000)));
            case 6 -> b = PacketLayout.withCrc(b.with(PacketLayout.HEAD.DEST_TYPE, rnd.nextInt(4)));
            case 7 -> b = PacketLayout.withCrc(b.with(PacketLayout.TAIL.KIND, rnd.nextInt(4)));
            case 8 -> b = PacketLayout.withCrc(b.with(rnd.nextBoolean() ? PacketLayout.HEAD.DEST_VP : PacketLayout.HEAD.SRC_VP, rnd.nextInt(64)));
            case 9 -> b = PacketLayout.withCrc(b.with(PacketLayout.HEAD.HOP_PTR, rnd.nextInt(32)));
            case 10 -> b = PacketLayout.withCrc(b.with(new Field("hopnum", route.lsb(), 5), rnd.nextInt(32)));
            case 11 -> {
                int hop = rnd.nextInt(Th2.MAX_HOPS);
                b = PacketLayout.withCrc(b.with(new Field("hop", route.lsb() + 5 + 5 * hop, 5), rnd.nextInt(32)));
            }
            case 12 -> b = PacketLayout.withCrc(b.with(PacketLayout.HEAD.SRC_TYPE, rnd.nextInt(4)));
            default -> { }
        }
        return b;
    }
}
