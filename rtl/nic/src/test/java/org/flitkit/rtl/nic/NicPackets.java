package org.flitkit.rtl.nic;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.ChipType;
import org.flitkit.formats.th2.EepromPayload;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.FaultCode;
import org.flitkit.formats.th2.FaultPayload;
import org.flitkit.formats.th2.ManagementPacket;
import org.flitkit.formats.th2.NmpType;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.RegisterPayload;
import org.flitkit.formats.th2.RoutingField;
import org.flitkit.formats.th2.Th2;

/** Seeded packets arriving at a NIC (responses, error responses, fault reports, requests) and their flits. */
final class NicPackets {
    private NicPackets() {
    }

    static RoutingField route(RandomGenerator rnd) {
        List<Integer> hops = new ArrayList<>();
        for (int i = rnd.nextInt(4); i > 0; i--) {
            hops.add(rnd.nextInt(Th2.NRC_PORTS));
        }
        return new RoutingField(hops);
    }

    /** The request this NIC ({@code nicId}) sent from {@code srcVp}, answered at {@code destVp}. */
    static ManagementPacket request(RandomGenerator rnd, int nicId, int destVp, int srcVp, boolean eeprom) {
        return ManagementPacket.builder().route(route(rnd)).returnRoute(route(rnd)).destType(ChipType.NRC)
                .destId(rnd.nextInt(0xFFFF)).srcType(ChipType.NIC).srcId(nicId).destVp(destVp).srcVp(srcVp)
                .rint(rnd.nextBoolean()).transactionId(rnd.nextInt(0x10000))
                .nmpType(eeprom ? NmpType.EEP_READ_REQ : NmpType.REG_READ_REQ)
                .payload(eeprom ? EepromPayload.of(rnd.nextInt(0x10000)) : RegisterPayload.of(rnd.nextInt(0x8000))).build();
    }

    /** A random response, error response or fault report for NIC {@code nicId}, VP {@code destVp}. */
    static ManagementPacket toHost(RandomGenerator rnd, int nicId, int destVp) {
        int srcVp = rnd.nextInt(Th2.VP_COUNT);
        int responder = rnd.nextInt(0xFFFF);
        switch (rnd.nextInt(4)) {
            case 0: {
                ManagementPacket req = request(rnd, nicId, destVp, srcVp, false);
                return req.response(responder, ((RegisterPayload) req.payload()).answeredWith(List.of(rnd.nextLong())));
            }
            case 1: {
                ManagementPacket req = request(rnd, nicId, destVp, srcVp, true);
                return req.response(responder, ((EepromPayload) req.payload()).answeredWith(List.of(rnd.nextInt(256))));
            }
            case 2:
                return request(rnd, nicId, destVp, srcVp, false).errorResponse(responder, ErrorCode.UNMAPPED_ADDRESS, 0);
            default:
                return ManagementPacket.builder().route(route(rnd)).returnRoute(RoutingField.EMPTY).destType(ChipType.NIC)
                        .destId(nicId).srcType(ChipType.NRC).srcId(responder).destVp(destVp).srcVp(srcVp)
                        .rint(rnd.nextBoolean()).transactionId(rnd.nextInt(0x10000)).nmpType(NmpType.FAULT_REPORT)
                        .payload(FaultPayload.of(FaultCode.LINK_DOWN, rnd.nextInt(Th2.NRC_PORTS), rnd.nextLong(), rnd.nextLong())).build();
        }
    }

    /** A request for this NIC's NMA (DestType NIC). */
    static ManagementPacket forNma(RandomGenerator rnd, int nicId) {
        return ManagementPacket.builder().route(route(rnd)).returnRoute(route(rnd)).destType(ChipType.NIC).destId(nicId)
                .srcType(ChipType.NIC).srcId(rnd.nextInt(0xFFFF)).destVp(rnd.nextInt(Th2.VP_COUNT)).srcVp(rnd.nextInt(Th2.VP_COUNT))
                .transactionId(rnd.nextInt(0x10000)).nmpType(NmpType.REG_READ_REQ).payload(RegisterPayload.of(rnd.nextInt(0x1000))).build();
    }

    static List<BigInteger> flits(BitVector packet) {
        List<BigInteger> out = new ArrayList<>();
        for (BitVector f : PacketLayout.toFlits(packet)) {
            out.add(f.toBigInteger());
        }
        return out;
    }

    static BitVector bits(BigInteger v) {
        return BitVector.of(Th2.PACKET_BITS, v);
    }

    /** The packet with {@code field} changed and the CRC made right again (a bad header that passes the CRC). */
    static BitVector withField(BitVector p, org.flitkit.formats.core.Field field, long value) {
        return PacketLayout.withCrc(p.with(field, value));
    }

    static String show(BitVector v) {
        try {
            return ManagementPacket.parse(v).toString();
        } catch (IllegalArgumentException e) {
            return v.toHex() + " (" + e.getMessage() + ")";
        }
    }
}
